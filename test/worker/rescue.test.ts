/**
 * @module
 * Questions nobody picked up, on Slack at production timings (test/support/README.md): the rescue job is one
 * delayed QStash delivery RESCUE_AFTER_MINUTES after the question, on the stand-in's virtual clock; it reads what
 * followed from Slack as backfill reads it (the fake holds what people wrote, as Slack would) and steps in, in a
 * thread under the question, only when nobody answered.
 */
import { describe, expect, it, vi } from "vitest";
import { SLACK_FAKE_DEFAULT_TEAM } from "../../dev/fakes/slack/workspaces.ts";
import { slackHeaders } from "../../dev/signers/slack.ts";
import { modelRequests, scriptModel } from "../support/model.ts";
import { prodTimingSuite } from "../support/prod-timing.ts";
import {
  BOT_USER_ID,
  SLACK_SIGNING_SECRET,
  signedSlackRequest,
  slackMessageEvent,
  slackPosts,
} from "../support/slack.ts";
import { callWorker, pumpJobsDuringSuite, SLACK_API_BASE_URL } from "../support/worker.ts";

const SUITE = "rescue";
const WAIT_MINUTES = 10;
// A follow-up window of a second: a question right after the bot's answer is then addressed to nobody.
const kit = prodTimingSuite(SUITE, {
  USE_LLM_JUDGE: "false",
  MEMORY_ENABLED: "false",
  RESCUE_AFTER_MINUTES: String(WAIT_MINUTES),
  RESCUE_MAX_PER_HOUR: "1",
  FOLLOWUP_WINDOW_SECONDS: "1",
});
const TEAM = "TRESCUE";
const ADMIN = "URESCUEADMIN";
const FAKE = SLACK_API_BASE_URL.replace(/\/api$/, "");
let seq = 0;

pumpJobsDuringSuite(kit.env, SUITE);

const newChannel = () => `CRESC${Date.now().toString(36).toUpperCase()}${++seq}`;

/** A person's message: in Slack (the fake keeps it, as Slack would for history) and delivered to the Worker. */
async function say(
  channel: string,
  user: string,
  text: string,
  threadTs?: string,
): Promise<{ ts: string; body: string }> {
  const event = slackMessageEvent({ team: TEAM, channel, user, text, ...(threadTs ? { threadTs } : {}) });
  const kept = await fetch(`${FAKE}/__messages`, {
    method: "POST",
    body: JSON.stringify({ channel, user, text, ts: event.ts, ...(threadTs ? { thread_ts: threadTs } : {}) }),
  });
  expect(kept.status).toBe(200);
  await deliver(event.body);
  return event;
}

async function deliver(body: string): Promise<void> {
  expect((await callWorker(kit.env, await signedSlackRequest(body))).status).toBe(200);
}

async function parley(channel: string, text: string): Promise<void> {
  await fetch(`${FAKE}/__roles`, {
    method: "POST",
    body: JSON.stringify({ team: SLACK_FAKE_DEFAULT_TEAM.id, admins: [ADMIN] }),
  });
  const body = new URLSearchParams({
    team_id: TEAM,
    channel_id: channel,
    user_id: ADMIN,
    command: "/parley",
    text,
  }).toString();
  const headers = {
    "Content-Type": "application/x-www-form-urlencoded",
    ...(await slackHeaders(SLACK_SIGNING_SECRET, body)),
  };
  const res = await callWorker(
    kit.env,
    new Request("https://bot.test/slack/commands", { method: "POST", headers, body }),
  );
  expect(((await res.json()) as { text: string }).text).toMatch(/^Done\./);
}

type Logs = { mock: { calls: unknown[][] } };
const events = (logs: Logs, channel: string, event: string) =>
  logs.mock.calls
    .map((c) => String(c[0]))
    .filter((l) => l.includes(`"event":"${event}"`) && l.includes(channel))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("questions nobody picked up", () => {
  it("waits RESCUE_AFTER_MINUTES, then answers in a thread under the question, saying it steps in", async () => {
    const channel = newChannel();
    await parley(channel, "rescue on");
    await scriptModel({
      match: `mirror-${channel}`,
      reply: "Nobody's picked this up yet, so: the mirror list is on the Ubuntu site.",
    });
    const logs = vi.spyOn(console, "log");
    const { ts, body } = await say(
      channel,
      "UASKER",
      `does anyone know a fast mirror for the updates? mirror-${channel}`,
    );
    // Delivered again by Slack: still one rescue.
    await deliver(body);
    expect(events(logs, channel, "rescue_scheduled").map((l) => l.deduplicated)).toEqual([false, true]);
    await kit.deliveriesSettled();
    await kit.timePasses(WAIT_MINUTES * 60_000 - 5_000);
    expect(events(logs, channel, "rescue_ended")).toHaveLength(0);
    await kit.timePasses(10_000);
    await kit.deliveriesSettled();
    expect(events(logs, channel, "rescue_ended").map((l) => l.outcome)).toEqual(["stepped_in"]);
    const posts = await slackPosts(channel);
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ thread_ts: ts, text: expect.stringMatching(/^Nobody's picked this up yet/) });
    const [prompt] = await modelRequests(`mirror-${channel}`);
    expect(JSON.stringify(prompt)).toContain("you are stepping in");
    expect(JSON.stringify(prompt)).toContain("[SKIP]");
    logs.mockRestore();
  });

  it("leaves a question alone that someone answered, in its thread or in the channel, or that was deleted", async () => {
    const channel = newChannel();
    await parley(channel, "rescue on");
    const logs = vi.spyOn(console, "log");
    const first = await say(channel, "UASKER", "how do I change the keyboard layout on the login screen?");
    await say(channel, "UHELPER", "Settings, then Region and Language, then the login screen button", first.ts);
    const second = await say(channel, "UOTHER", "which kernel does the new release ship with?");
    await say(channel, "UHELPER", "uother: it ships with 6.8, the changelog lists it");
    const third = await say(channel, "UASKER", "is there a way to keep the old driver after the upgrade?");
    expect(
      (await fetch(`${FAKE}/__messages/delete`, { method: "POST", body: JSON.stringify({ channel, ts: third.ts }) }))
        .status,
    ).toBe(200);
    await kit.deliveriesSettled();
    await kit.timePasses(WAIT_MINUTES * 60_000 + 5_000);
    await kit.deliveriesSettled();
    const ended = Object.fromEntries(events(logs, channel, "rescue_ended").map((l) => [l.trigger, l.outcome]));
    expect(ended[`${channel}:${first.ts}`]).toBe("answered_by_people");
    expect(ended[`${channel}:${second.ts}`]).toBe("answered_by_people");
    expect(ended[`${channel}:${third.ts}`]).toBe("question_gone");
    expect(await slackPosts(channel)).toHaveLength(0);
    logs.mockRestore();
  });

  it("leaves a question alone whose asker asked to be forgotten since", async () => {
    const channel = newChannel();
    await parley(channel, "rescue on");
    const logs = vi.spyOn(console, "log");
    const question = await say(channel, "UASKER", "does anyone know how to keep the old kernel installed?");
    await kit.deliveriesSettled();
    await say(channel, "UASKER", `<@${BOT_USER_ID}> forget me`);
    await kit.deliveriesSettled();
    await kit.timePasses(WAIT_MINUTES * 60_000 + 5_000);
    await kit.deliveriesSettled();
    expect(events(logs, channel, "rescue_ended").map((l) => l.outcome)).toEqual(["question_gone"]);
    expect((await slackPosts(channel)).filter((p) => p.thread_ts === question.ts)).toHaveLength(0);
    logs.mockRestore();
  });

  it("leaves a question alone when Slack refuses to read its channel, and says what is missing", async () => {
    const channel = newChannel();
    await parley(channel, "rescue on");
    const logs = vi.spyOn(console, "log");
    const warnings = vi.spyOn(console, "warn");
    await say(channel, "UASKER", "does anyone know how to pin a package version?");
    // The bot was removed from the channel before the wait ended.
    expect(
      (await fetch(`${FAKE}/__membership`, { method: "POST", body: JSON.stringify({ channel, member: false }) }))
        .status,
    ).toBe(200);
    await kit.deliveriesSettled();
    await kit.timePasses(WAIT_MINUTES * 60_000 + 5_000);
    await kit.deliveriesSettled();
    expect(events(logs, channel, "rescue_ended").map((l) => l.outcome)).toEqual(["history_refused"]);
    expect(events(warnings, channel, "history_refused").map((l) => l.missing)).toEqual(["not_in_channel"]);
    expect(await slackPosts(channel)).toHaveLength(0);
    logs.mockRestore();
    warnings.mockRestore();
  });

  it("is off by default, and steps in at most RESCUE_MAX_PER_HOUR times a place", async () => {
    const quiet = newChannel();
    const logs = vi.spyOn(console, "log");
    await say(quiet, "UASKER", "does anyone know why the wifi drops after suspend?");
    expect(events(logs, quiet, "rescue_scheduled")).toHaveLength(0);
    const busy = newChannel();
    await parley(busy, "rescue on");
    await say(busy, "UASKER", "does anyone know why the wifi drops after suspend?");
    await say(busy, "UOTHER", "what is the best way to back up my home folder?");
    await kit.deliveriesSettled();
    await kit.timePasses(WAIT_MINUTES * 60_000 + 5_000);
    await kit.deliveriesSettled();
    expect(
      events(logs, busy, "rescue_ended")
        .map((l) => l.outcome)
        .sort(),
    ).toEqual(["rescue_capped", "stepped_in"]);
    expect(await slackPosts(busy)).toHaveLength(1);
    logs.mockRestore();
  });

  it("reads what followed from the conversation's log while one holds the question, and waits the channel's own minutes", async () => {
    const channel = newChannel();
    await parley(channel, "rescue on 1");
    const logs = vi.spyOn(console, "log");
    await deliver(
      slackMessageEvent({ team: TEAM, channel, user: "UALICE", text: `<@${BOT_USER_ID}> which editor do you use?` })
        .body,
    );
    await kit.deliveriesSettled();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // Said to the Worker only: Slack's history (the fake) never had it, so only the log can tell what followed.
    const question = slackMessageEvent({
      team: TEAM,
      channel,
      user: "UBOB",
      text: "does anyone know how to rotate the logs every night?",
    });
    await deliver(question.body);
    expect(events(logs, channel, "rescue_scheduled").map((l) => l.seconds)).toEqual([60]);
    await kit.timePasses(65_000);
    await kit.deliveriesSettled();
    expect(events(logs, channel, "rescue_ended").map((l) => l.outcome)).toEqual(["stepped_in"]);
    expect((await slackPosts(channel)).filter((p) => p.thread_ts === question.ts)).toHaveLength(1);
    logs.mockRestore();
  });
});
