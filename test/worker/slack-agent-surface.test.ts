/**
 * @module
 * Slack's agent surface (docs/platforms/slack.md, "The agent DM"): opening the bot's DM (`app_home_opened` on the
 * Messages tab, agent_view) puts the workspace's SUGGESTED_PROMPTS on it without a thread, an assistant thread
 * started on the legacy assistant_view gets them on its thread, a workspace's own list wins over everyone's, and a
 * thread is titled from its first question once answered (and keeps that title). A malformed SUGGESTED_PROMPTS
 * turns the prompts off, logged as an error, and the bot keeps answering. Payloads are the corpus's
 * (test/fixtures/platforms/slack/assistant.json).
 */
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from "vitest";
import fixture from "../fixtures/platforms/slack/assistant.json";
import { newSlackChannel, SLACK_CONTROL, signedSlackRequest, slackMessageEvent } from "../support/slack.ts";
import { botMessages } from "../support/streams.ts";
import { callWorker, eventually, pumpJobsDuringSuite, settle, suiteEnv } from "../support/worker.ts";

const OWN_TEAM = "TAGENTOWN1";
const EVERYONE = [
  { title: "Catch me up", message: "Catch me up" },
  { title: "Open tickets?", message: "Which tickets are open?" },
];
const OWN = [{ title: "Deploy status", message: "How did the last deploy go?" }];
const env = suiteEnv("agentsurface", { SUGGESTED_PROMPTS: JSON.stringify({ "*": EVERYONE, [OWN_TEAM]: OWN }) });
const badEnv = suiteEnv("agentbad", { SUGGESTED_PROMPTS: '[{"title":"no message"}]' });

// Before the pumps start: the settings' problems are logged when a runtime first reads them.
let errors: MockInstance;
beforeAll(() => void (errors = vi.spyOn(console, "error")));
afterAll(() => errors.mockRestore());
pumpJobsDuringSuite(env, "agentsurface");
pumpJobsDuringSuite(badEnv, "agentbad");

interface AssistantThread {
  channel: string;
  thread_ts: string;
  prompts?: unknown[];
  title?: string;
}

const threadsIn = async (channel: string): Promise<AssistantThread[]> =>
  (await (await fetch(`${SLACK_CONTROL}/__assistant?${new URLSearchParams({ channel })}`)).json()) as AssistantThread[];

type Case = (typeof fixture.cases)[number];
const caseNamed = (name: string): Case => fixture.cases.find((c) => c.name === name)!;

/** A corpus case's envelope, in `team` and the DM `channel` (and thread, for an assistant thread). */
function opened(name: string, team: string, channel: string, threadTs?: string): string {
  const payload = structuredClone(caseNamed(name).payload) as Record<string, unknown> & {
    event: Record<string, unknown> & { assistant_thread?: Record<string, unknown> };
    authorizations: Record<string, unknown>[];
  };
  payload.team_id = team;
  payload.authorizations[0]!.team_id = team;
  payload.event_id = `Ev${channel}`;
  if (payload.event.assistant_thread)
    Object.assign(payload.event.assistant_thread, { channel_id: channel, thread_ts: threadTs });
  else payload.event.channel = channel;
  return JSON.stringify(payload);
}

async function deliver(testEnv: typeof env, body: string): Promise<void> {
  expect((await callWorker(testEnv, await signedSlackRequest(body))).status).toBe(200);
}

const promptsOn = (channel: string, threadTs = "") =>
  eventually(
    async () => (await threadsIn(channel)).find((t) => t.thread_ts === threadTs)?.prompts,
    10_000,
    "the suggested prompts",
  );

describe("the agent DM opened", () => {
  it("gets everyone's prompts, with no thread named, under agent_view", async () => {
    const channel = newSlackChannel("D");
    await deliver(env, opened("app_home_opened on the messages tab", "TAGENTANY1", channel));
    expect(await promptsOn(channel)).toEqual(EVERYONE);
  });

  it("gets the workspace's own prompts when it has a list", async () => {
    const channel = newSlackChannel("D");
    await deliver(env, opened("app_home_opened on the messages tab", OWN_TEAM, channel));
    expect(await promptsOn(channel)).toEqual(OWN);
  });

  it("gets them on the thread of a legacy assistant thread", async () => {
    const channel = newSlackChannel("D");
    await deliver(env, opened("assistant_thread_started", "TAGENTANY1", channel, "1715000300.000100"));
    expect(await promptsOn(channel, "1715000300.000100")).toEqual(EVERYONE);
  });

  it("gets none from the Home tab", async () => {
    const channel = newSlackChannel("D");
    await deliver(env, opened("app_home_opened on the home tab", "TAGENTANY1", channel));
    await settle(500);
    expect(await threadsIn(channel)).toEqual([]);
  });
});

async function askInThread(testEnv: typeof env, channel: string, threadTs: string, text: string): Promise<void> {
  const event = slackMessageEvent({ team: "TAGENTANY1", channel, user: "UALICE", text, threadTs, channelType: "im" });
  await deliver(testEnv, event.body);
}

describe("an assistant thread's title", () => {
  it("is its first question, once answered, and stays so after the next answer", async () => {
    const channel = newSlackChannel("D");
    const threadTs = "1715000400.000100";
    await askInThread(env, channel, threadTs, "What   changed in\nthe last release?");
    const title = async () => (await threadsIn(channel)).find((t) => t.thread_ts === threadTs)?.title;
    expect(await eventually(title, 20_000, "the title")).toBe("What changed in the last release?");
    await askInThread(env, channel, threadTs, "And before that?");
    await eventually(async () => (await botMessages(channel)).length >= 2 || undefined, 20_000, "the second answer");
    await settle(500);
    expect(await title()).toBe("What changed in the last release?");
  });
});

describe("a malformed SUGGESTED_PROMPTS", () => {
  it("turns the prompts off, logged as an error naming the setting, and the bot keeps answering", async () => {
    const channel = newSlackChannel("D");
    await deliver(badEnv, opened("app_home_opened on the messages tab", "TAGENTANY1", channel));
    await askInThread(badEnv, channel, "1715000500.000100", "Are you there?");
    await eventually(async () => (await botMessages(channel)).length > 0 || undefined, 20_000, "the answer");
    expect((await threadsIn(channel)).every((t) => t.prompts === undefined)).toBe(true);
    const problems = errors.mock.calls
      .map((c) => JSON.parse(String(c[0])) as Record<string, unknown>)
      .filter((l) => l.event === "setting_ignored" && l.setting === "SUGGESTED_PROMPTS");
    expect(problems[0]).toMatchObject({ level: "error", platform: "slack" });
    expect(String(problems[0]?.problem)).toContain("malformed");
  });
});
