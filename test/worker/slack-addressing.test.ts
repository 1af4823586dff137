import { describe, expect, it, vi } from "vitest";
import { BOT_USER_ID, signedSlackRequest, slackMessageEvent, slackPosts } from "../support/slack.ts";
import { callWorker, eventually, settle, pumpJobsDuringSuite, suiteEnv } from "../support/worker.ts";

const SUITE = "slackaddr";
// The judge is off, as by default with the local model: what is answered here is the decider's own call.
const env = suiteEnv(SUITE, { FOLLOWUP_WINDOW_SECONDS: "60", USE_LLM_JUDGE: "false", MEMORY_ENABLED: "false" });
const TEAM = "TSLACKADDR";
let channelSeq = 0;

pumpJobsDuringSuite(env, SUITE);

function newChannel(): string {
  channelSeq += 1;
  return `C${Date.now().toString(36).toUpperCase()}A${channelSeq}`;
}

/** A channel message from a person with a display name, as Slack sends it. */
async function say(channel: string, user: string, text: string): Promise<void> {
  const event = JSON.parse(slackMessageEvent({ team: TEAM, channel, user, text }).body) as {
    event: Record<string, unknown>;
  };
  event.event.user_profile = { display_name: user.slice(1, 2) + user.slice(2).toLowerCase() };
  const res = await callWorker(env, await signedSlackRequest(JSON.stringify(event)));
  expect(res.status).toBe(200);
}

/** A reaction_added event as Slack sends it, on a message of `item.user` (only its author matters to Parley). */
async function react(
  channel: string,
  user: string,
  reaction: string,
  item: { ts: string; user: string },
): Promise<void> {
  const event = JSON.parse(slackMessageEvent({ team: TEAM, channel, user, text: "x" }).body) as {
    event: Record<string, unknown>;
  };
  const eventTs = event.event.ts;
  event.event = {
    type: "reaction_added",
    user,
    reaction,
    item_user: item.user,
    item: { type: "message", channel, ts: item.ts },
    event_ts: eventTs,
  };
  const res = await callWorker(env, await signedSlackRequest(JSON.stringify(event)));
  expect(res.status).toBe(200);
}

/** The answer is posted, then recorded in the conversation: a follow-up is decided over it only after that. */
function answersRecorded(logs: { mock: { calls: unknown[][] } }, channel: string): number {
  return logs.mock.calls
    .map((c) => String(c[0]))
    .filter((l) => l.includes('"event":"job_ended"') && l.includes(channel) && l.includes('"outcome":"answered"'))
    .length;
}

function decisionsIn(logs: { mock: { calls: unknown[][] } }, channel: string): { respond: string; reason: string }[] {
  return logs.mock.calls
    .map((c) => String(c[0]))
    .filter((line) => line.includes('"event":"decision"') && line.includes(channel))
    .map((line) => JSON.parse(line) as { respond: string; reason: string });
}

describe("who a Slack message is for, in natural wording", () => {
  it("answers a second person's follow-up, keeps out of a lunch plan between two people, and goes quiet on 'not you'", async () => {
    const channel = newChannel();
    const logs = vi.spyOn(console, "log");
    await say(channel, "UALICE", `<@${BOT_USER_ID}> should I learn Rust or Go first for backend work?`);
    await eventually(async () => answersRecorded(logs, channel) === 1, 15_000, "the answer to the mention");
    await say(channel, "UBOB", "and is it worth it if I already know Go?");
    await eventually(async () => answersRecorded(logs, channel) === 2, 15_000, "the answer to the follow-up");
    await say(channel, "UALICE", "Carol, are you coming to lunch today?");
    await say(channel, "UCAROL", "yes! 12:30?");
    await say(channel, "UALICE", "perfect, I'll book a table for three");
    await say(channel, "UBOB", "not you, Parley, I was asking Alice");
    await say(channel, "UBOB", "and is it worth it for a small team?");
    await settle(1_500);
    expect(await slackPosts(channel)).toHaveLength(2);
    expect(decisionsIn(logs, channel).map((d) => `${d.respond} ${d.reason}`)).toEqual([
      "yes direct_mention",
      "yes continuation",
      "no addressed_other",
      "no no_trigger",
      "no no_trigger",
      "no not_you",
      "no told_not_you",
    ]);
    logs.mockRestore();
  });

  it("a 👎 on the bot's answer is recorded, never answered, and quiets that person's follow-ups", async () => {
    const channel = newChannel();
    const logs = vi.spyOn(console, "log");
    await say(channel, "UALICE", `<@${BOT_USER_ID}> how many cups are in a litre?`);
    await eventually(async () => answersRecorded(logs, channel) === 1, 15_000, "the answer");
    const answer = { ts: "1715000000.000100", user: BOT_USER_ID };
    await react(channel, "UDAVE", "+1", answer);
    await react(channel, "UALICE", "-1", answer);
    await say(channel, "UALICE", "and in a gallon?");
    await settle(1_500);
    expect(await slackPosts(channel)).toHaveLength(1);
    expect(decisionsIn(logs, channel).map((d) => `${d.respond} ${d.reason}`)).toEqual([
      "yes direct_mention",
      "no not_you",
      "no told_not_you",
    ]);
    logs.mockRestore();
  });
});
