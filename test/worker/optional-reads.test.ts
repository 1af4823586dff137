/**
 * @module
 * An optional read that fails never costs the answer (issue #42): for every optional read on every platform that
 * has one, the platform's fake serves a body that is not JSON, JSON of another shape, a 5xx, an answer slower than
 * the read's deadline and (where the platform has `ok:false`) an error code Parley does not know. The answer goes
 * out exactly once, at production timing (QStash's real retry schedule on the virtual clock), and one line
 * `<read>_unavailable` says which read failed and why (lib/platforms/optional-read.ts). The Slack thread mention
 * whose `conversations.replies` answered `{"ok": true}` was never answered: the lookup of a part an earlier
 * attempt may have posted threw a ZodError on every delivery.
 */
import { describe, expect, it } from "vitest";
import { generateDiscordKeys } from "../../dev/signers/discord.ts";
import { OPTIONAL_READ_TIMEOUT_MS } from "../../lib/platforms/optional-read.ts";
import { askInteraction, discordCalls, snowflake } from "../support/discord.ts";
import { interactAsDiscord } from "../support/discord-worker.ts";
import { scriptFault } from "../support/fault-control.ts";
import {
  chatRequest,
  GOOGLE_CHAT_URL,
  newPerson,
  newSpace,
  PROJECT_NUMBER,
  say,
  spaceMessages,
} from "../support/google-chat.ts";
import { logLinesDuring } from "../support/held-data.ts";
import { ALL_RETRIES_MS, prodTimingSuite, type ProdTimingSuite } from "../support/prod-timing.ts";
import { INSTALLABLE, installWorkspace } from "../support/slack-install.ts";
import { newSlackChannel, signedSlackRequest, slackMention, slackPosts } from "../support/slack.ts";
import { callWorker, pumpJobsDuringSuite, SLACK_API_BASE_URL } from "../support/worker.ts";

const SLACK = SLACK_API_BASE_URL.replace(/\/api$/, "");
const TEAM = "TOPTREADS";
const keys = await generateDiscordKeys();
const common = {
  DISCORD_PUBLIC_KEY: keys.publicKeyHex,
  DISCORD_BOT_TOKEN: "test-discord-bot-token",
  GOOGLE_CHAT_AUDIENCE: PROJECT_NUMBER,
  USE_LLM_JUDGE: "false",
};
/** Reading the place when a conversation starts, on; and off, so that a thread's parent is looked up on its own. */
const reading = prodTimingSuite("optreads", { ...common, BACKFILL_MESSAGES: "30" });
const notReading = prodTimingSuite("optreadsoff", { ...common, BACKFILL_MESSAGES: "0" });
/** Each workspace installed with a token of its own: its `auth.test` (the workspace's domain) is its alone. */
const installed = prodTimingSuite("optreadsinst", { ...common, ...INSTALLABLE, BACKFILL_MESSAGES: "0" });
pumpJobsDuringSuite(reading.env, "optreads");
pumpJobsDuringSuite(notReading.env, "optreadsoff");
pumpJobsDuringSuite(installed.env, "optreadsinst");

type Fault = Record<string, unknown>;
/** What each platform's fake serves, and the reason the log line gives for it. */
const FAULTS: { name: string; fault: Fault; reason: string; okFalse?: true }[] = [
  { name: "a body that is not JSON", fault: { fault: "garbage" }, reason: "not_json" },
  { name: "JSON of another shape", fault: { fault: "garbage", shape: "wrong_shape" }, reason: "unexpected_shape" },
  { name: "a 503", fault: { fault: "refuse", status: 503 }, reason: "http_5xx" },
  {
    name: "an answer past the read's deadline",
    fault: { fault: "delay", delayMs: OPTIONAL_READ_TIMEOUT_MS + 1_500 },
    reason: "timeout",
  },
  {
    name: "ok:false with an unknown error",
    fault: { fault: "error", error: "fatal_error" },
    reason: "platform_error",
    okFalse: true,
  },
];

interface Capability {
  name: string;
  /** The read's log line: `<read>_unavailable`. */
  read: string;
  kit: ProdTimingSuite;
  /** Whether the platform answers `ok:false` (Slack); elsewhere an unknown error is an HTTP status. */
  okFalse: boolean;
  /** QStash deliveries that fail on purpose before the answer goes out (a post the test refuses). */
  failedAttempts?: number;
  /** Scripts `fault` on the read, sends the message, and answers how many answers it has got. */
  run(fault: Fault): Promise<() => Promise<number>>;
}

/** A person's message in Slack (the fake keeps it, as Slack does), that nobody delivers to the Worker. */
async function inSlack(channel: string, text: string, team?: string): Promise<string> {
  const ts = `${Math.floor(Date.now() / 1000) - 60}.${String(Date.now() % 1_000_000).padStart(6, "0")}`;
  const res = await fetch(`${SLACK}/__messages`, {
    method: "POST",
    body: JSON.stringify({ channel, user: "UBOB", text, ts, ...(team ? { team } : {}) }),
  });
  expect(res.ok).toBe(true);
  return ts;
}

async function slackMentioned(
  kit: ProdTimingSuite,
  channel: string,
  threadTs?: string,
  text = "what should we do now?",
  team = TEAM,
): Promise<() => Promise<number>> {
  const event = slackMention({ team, channel, user: "UALICE", text });
  const body = JSON.parse(event.body) as { event: Record<string, unknown> };
  if (threadTs) body.event.thread_ts = threadTs;
  expect((await callWorker(kit.env, await signedSlackRequest(JSON.stringify(body)))).status).toBe(200);
  return async () => (await slackPosts(channel)).length;
}

/** Every Slack call of `method` whose fields (as JSON) contain `fields` fails with `fault`. */
const failSlack = (method: string, fault: Fault, fields: string) =>
  scriptFault(SLACK, { ...fault, path: `/${method}`, bodyContains: fields, times: 10 } as never);

/** A Slack read: `method`'s calls whose fields contain `fields(channel, parent)` fail, then Alice mentions the bot. */
interface SlackRead extends Pick<Capability, "name" | "read" | "kit" | "failedAttempts"> {
  method: "conversations.history" | "conversations.replies";
  /** The mention is in the thread under Bob's message (its ts is `parent`), else in the channel. */
  inThread: boolean;
  fields(channel: string, parent: string): string;
  text?: string;
  /** Done before the mention (a fault on the answer's first post). */
  before?(channel: string): Promise<unknown>;
}

const slackRead = ({ method, inThread, fields, text, before, ...row }: SlackRead): Capability => ({
  ...row,
  okFalse: true,
  async run(fault) {
    const channel = newSlackChannel("COPT");
    const parent = await inSlack(channel, "the deploy failed at step 3");
    await before?.(channel);
    await failSlack(method, fault, fields(channel, parent));
    return slackMentioned(row.kit, channel, inThread ? parent : undefined, text);
  },
});

const CAPABILITIES: Capability[] = [
  slackRead({
    name: "Slack channel history (conversations.history)",
    read: "history",
    kit: reading,
    method: "conversations.history",
    inThread: false,
    fields: (channel) => `"channel":"${channel}"`,
  }),
  slackRead({
    name: "Slack thread replies (conversations.replies)",
    read: "history",
    kit: reading,
    method: "conversations.replies",
    inThread: true,
    fields: (channel, parent) => `"channel":"${channel}","ts":"${parent}","latest"`,
  }),
  // Not read at the conversation's start (reading is off): the catch-up's first page is the one that fails.
  slackRead({
    name: "Slack catch-up's pages (conversations.history)",
    read: "history",
    kit: notReading,
    method: "conversations.history",
    inThread: false,
    fields: (channel) => `"channel":"${channel}"`,
    text: "catch me up",
  }),
  slackRead({
    name: "Slack thread parent (conversations.replies, limit 1)",
    read: "parent",
    kit: notReading,
    method: "conversations.replies",
    inThread: true,
    fields: (channel, parent) => `"channel":"${channel}","ts":"${parent}","limit":"1"`,
  }),
  // The first post fails (500: nothing posted), so QStash's retry 12 s later looks for it in the thread first.
  slackRead({
    name: "Slack lookup of a part an earlier attempt may have posted (conversations.replies)",
    read: "part_lookup",
    kit: notReading,
    failedAttempts: 1,
    method: "conversations.replies",
    inThread: true,
    fields: (channel, parent) => `"channel":"${channel}","ts":"${parent}","oldest"`,
    before: (channel) =>
      scriptFault(SLACK, { fault: "refuse", status: 500, path: "/chat.postMessage", bodyContains: channel } as never),
  }),
  {
    // The catch-up's answer cites the messages read by links, put on the workspace's own domain as auth.test names it.
    name: "Slack catch-up's links on the workspace's domain (auth.test)",
    read: "workspace_domain",
    kit: installed,
    okFalse: true,
    async run(fault) {
      const team = `TOPTD${newSlackChannel("").slice(0, 12)}`;
      await installWorkspace(installed.env, { id: team, name: "Links" });
      const channel = newSlackChannel("COPTD");
      await inSlack(channel, "the deploy failed at step 3", team);
      await failSlack("auth.test", fault, `"team":"${team}"`);
      return slackMentioned(installed, channel, undefined, "catch me up", team);
    },
  },
  {
    name: "Discord channel history (Get Channel Messages), asked by /ask",
    read: "history",
    kit: reading,
    okFalse: false,
    async run(fault) {
      const channelId = snowflake();
      const api = String(reading.env.DISCORD_API_BASE_URL);
      await scriptFault(api.replace(/\/api\/v10$/, ""), {
        ...fault,
        path: "/list_messages",
        bodyContains: `"channelId":"${channelId}"`,
        times: 10,
      } as never);
      const ask = askInteraction({ guildId: snowflake(), channelId }, { id: snowflake(), name: "Alice" }, "and now?");
      expect((await interactAsDiscord(reading.env, keys, ask)).status).toBe(200);
      return async () => (await discordCalls(api, { route: "edit_original", token: ask.token })).length;
    },
  },
  {
    name: "Google Chat space history (spaces.messages.list)",
    read: "history",
    kit: reading,
    okFalse: false,
    async run(fault) {
      const space = await newSpace("DIRECT_MESSAGE");
      const wrong = fault.shape === "wrong_shape" ? { body: { messages: 7 } } : {};
      await scriptFault(GOOGLE_CHAT_URL, {
        ...fault,
        ...wrong,
        path: "/spaces.messages.list",
        bodyContains: `"space":"${space}"`,
        times: 10,
      } as never);
      const { delivery } = await say(space, newPerson("Fay"), "what should we do now?");
      expect((await callWorker(reading.env, chatRequest(delivery!))).status).toBe(200);
      return async () => (await spaceMessages(space)).length;
    },
  },
];

const CASES = CAPABILITIES.flatMap((capability) =>
  FAULTS.filter((f) => !f.okFalse || capability.okFalse).map((f) => ({ ...f, capability })),
);

describe("an optional read that fails", () => {
  // One test per case, named in full (it.each shortens what it interpolates).
  for (const { capability, fault, reason, name } of CASES)
    it(`${capability.name}: ${name} costs nothing but the read`, async () => {
      let answers: () => Promise<number> = async () => 0;
      const deliveries: { path: string; outcome: string }[] = [];
      const lines = await logLinesDuring(async () => {
        answers = await capability.run(fault);
        deliveries.push(...(await capability.kit.deliveriesSettled()).deliveries);
        deliveries.push(...(await capability.kit.timePasses(ALL_RETRIES_MS)).deliveries);
      });
      expect(await answers()).toBe(1);
      const replyJobs = deliveries.filter((d) => d.path.endsWith("/jobs/reply")).map((d) => d.outcome);
      expect(replyJobs).toEqual([...Array<string>(capability.failedAttempts ?? 0).fill("retry"), "done"]);
      const unavailable = lines
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.event === `${capability.read}_unavailable`);
      expect(unavailable[0]).toMatchObject({ level: "warn", reason });
      // No message text in it: the fake's messages and the question stay out of the log line.
      expect(JSON.stringify(unavailable)).not.toMatch(/deploy failed|should we do/);
    });
});
