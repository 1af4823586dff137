/**
 * @module
 * A follow-up sent while the answer is still being streamed (issue #32), at production timing, with the judge off
 * and on. People read the first words and reply before the answer is complete: for the decider the bot has spoken
 * from then on, so Owen's "and what about a megabyte versus a mebibyte?" continues the answer Maya asked for, and
 * it is answered after that answer is complete (QStash's flow control runs one job per place at a time), never
 * interleaved with it. The first answer is recorded once, at the time it began to show: before Owen's message.
 * On Slack the answer is Slack's own stream; on Telegram, a reply in the group edited as it grows.
 */
import { describe, expect, it, vi } from "vitest";
import { ConversationStore } from "../../lib/conversation/store.ts";
import { conversationKeys } from "../../lib/keys.ts";
import { modelRequests } from "../support/model.ts";
import { prodTimingSuite } from "../support/prod-timing.ts";
import { BOT_USER_ID, newSlackChannel, signedSlackRequest, slackMessageEvent } from "../support/slack.ts";
import { botMessages, unescapeSlack } from "../support/streams.ts";
import {
  BOT,
  chatMessages,
  newChat,
  newPerson,
  say as sayOnTelegram,
  shownText,
  TELEGRAM_SECRET,
  telegramRequest,
} from "../support/telegram.ts";
import { callWorker, eventually, pumpJobsDuringSuite, settle } from "../support/worker.ts";

const TEAM = "TFOLLOWSTREAM";
/** Several seconds of answer: Owen reads its first words and writes before it is complete. */
const PACE = "[[local-model tokens=150 tps=20 first_ms=100]]";
const FOLLOW_UP = "and what about a megabyte versus a mebibyte?";

type Logs = { mock: { calls: unknown[][] } };

function decisionsIn(logs: Logs, channel: string): string[] {
  return logs.mock.calls
    .map((c) => String(c[0]))
    .filter((line) => line.includes('"event":"decision"') && line.includes(channel))
    .map((line) => JSON.parse(line) as { respond: string; reason: string })
    .map((d) => `${d.respond} ${d.reason}`);
}

describe.each([
  { judge: false, suite: "followstream", decided: "yes continuation" },
  { judge: true, suite: "followstreamjudge", decided: "judge judge" },
])("a follow-up written while the answer streams (judge $judge)", ({ judge, suite, decided }) => {
  const kit = prodTimingSuite(suite, { STREAMING: "true", USE_LLM_JUDGE: String(judge), MEMORY_ENABLED: "false" });
  const prefix = `t-${suite}`;
  const store = new ConversationStore(kit.redis, { prefix, ttlSeconds: () => 600, maxMessages: 200 });
  pumpJobsDuringSuite(kit.env, suite);

  async function say(channel: string, thread: string, user: string, text: string): Promise<void> {
    const event = slackMessageEvent({ team: TEAM, channel, user, text, threadTs: thread });
    expect((await callWorker(kit.env, await signedSlackRequest(event.body))).status).toBe(200);
  }

  it("is decided over the answer being written, and answered after it, once each, in order", async () => {
    const logs = vi.spyOn(console, "log");
    const channel = newSlackChannel("CFWS");
    const thread = "1700000000.003200";
    const place = { platform: "slack" as const, tenant: TEAM, channel, thread };
    await say(channel, thread, "UMAYA", `<@${BOT_USER_ID}> how many bytes are in a kilobyte? ${PACE}`);
    const first = kit.deliveriesSettled();
    // Owen reads the first words of the answer and writes while it is still being written.
    await eventually(
      async () => (await botMessages(channel))[0]?.streaming_state === "in_progress",
      15_000,
      "the answer streaming",
    );
    await say(channel, thread, "UOWEN", FOLLOW_UP);
    expect((await botMessages(channel))[0]!.streaming_state).toBe("in_progress");
    await first;
    await kit.deliveriesSettled();
    const answers = await eventually(
      async () => ((await botMessages(channel)).length === 2 ? botMessages(channel) : undefined),
      15_000,
      "both answers",
    );

    expect(decisionsIn(logs, channel)).toEqual(["yes direct_mention", decided]);
    // Never interleaved: the follow-up's answer began only once the first one was complete, its stream closed.
    const [toMaya, toOwen] = answers;
    expect(toMaya!.streaming_state).toBe("completed");
    expect(toOwen!.streaming_state).toBe("completed");
    expect(toOwen!.revisions[0]!.at).toBeGreaterThanOrEqual(toMaya!.revisions.at(-1)!.at);
    // Each answer is the bot's turn once, the first where it began to show: before Owen's message.
    const state = await eventually(
      async () => ((await store.load(place))?.recent.length === 4 ? store.load(place) : undefined),
      30_000,
      "both answers recorded",
    );
    expect(state!.recent.map((m) => `${m.role} ${m.role === "user" ? m.authorId : m.replyToAuthorId}`)).toEqual([
      "user UMAYA",
      "assistant UMAYA",
      "user UOWEN",
      "assistant UOWEN",
    ]);
    expect(unescapeSlack(toMaya!.text)).toBe(state!.recent[1]!.text);
    expect(
      JSON.parse(String(JSON.stringify(await kit.redis.get(conversationKeys(prefix, place).state)))),
    ).not.toHaveProperty("speaking");
    // Owen's answer was written knowing what the bot had said about kilobytes.
    const request = (await modelRequests(FOLLOW_UP)).at(-1);
    expect(request!.messages.map((m) => m.content).join("\n")).toContain(state!.recent[1]!.text);
    logs.mockRestore();
  });
});

describe("a follow-up written while a Telegram answer is edited as it grows", () => {
  const suite = "followstreamtg";
  const kit = prodTimingSuite(suite, {
    STREAMING: "true",
    USE_LLM_JUDGE: "false",
    MEMORY_ENABLED: "false",
    TELEGRAM_BOT_TOKEN: BOT.token,
    TELEGRAM_WEBHOOK_SECRET: TELEGRAM_SECRET,
    TELEGRAM_BOT_USERNAME: BOT.username,
    BACKFILL_MESSAGES: "30",
  });
  const store = new ConversationStore(kit.redis, { prefix: `t-${suite}`, ttlSeconds: () => 600, maxMessages: 200 });
  pumpJobsDuringSuite(kit.env, suite);

  async function post(update: Record<string, unknown> | undefined): Promise<void> {
    if (!update) throw new Error("the bot got no update for that message");
    expect((await callWorker(kit.env, telegramRequest(update))).status).toBe(200);
  }

  it("is a continuation, answered after the first answer is complete, at the first delivery of each", async () => {
    const logs = vi.spyOn(console, "log");
    const [maya, owen] = [newPerson("Maya"), newPerson("Owen")];
    const chat = await newChat({ group: { admin: true } });
    await post((await sayOnTelegram(chat, maya, `@${BOT.username} how many bytes are in a kilobyte? ${PACE}`)).update);
    const first = kit.deliveriesSettled();
    await eventually(async () => (await chatMessages(chat)).length === 1, 15_000, "the answer showing");
    // Owen reads the first words for a moment, then writes.
    await settle(1_100);
    await post((await sayOnTelegram(chat, owen, FOLLOW_UP)).update);
    expect(await chatMessages(chat)).toHaveLength(1);
    // Two answers in a row in one group meet Telegram's pace there: the second waits it out, spending no retry.
    const deliveries = [...(await first).deliveries, ...(await kit.deliveriesSettled()).deliveries];
    expect(deliveries.map((d) => `${d.retried} ${d.outcome}`)).toEqual(["0 done", "0 done"]);
    const [toMaya, toOwen] = await eventually(
      async () => ((await chatMessages(chat)).length === 2 ? chatMessages(chat) : undefined),
      15_000,
      "both answers",
    );

    expect(decisionsIn(logs, String(chat))).toEqual(["yes direct_mention", "yes continuation"]);
    expect(toOwen!.revisions[0]!.at).toBeGreaterThanOrEqual(toMaya!.revisions.at(-1)!.at);
    const place = { platform: "telegram" as const, tenant: `${BOT.id}:${chat}`, channel: String(chat) };
    const state = await eventually(
      async () => ((await store.load(place))?.recent.length === 4 ? store.load(place) : undefined),
      30_000,
      "both answers recorded",
    );
    expect(
      state!.recent.map(
        (m) =>
          `${m.role} ${m.role === "user" ? m.authorName : m.replyToAuthorId === String(maya.id) ? "Maya" : "Owen"}`,
      ),
    ).toEqual(["user Maya", "assistant Maya", "user Owen", "assistant Owen"]);
    expect(toMaya!.text).toBe(shownText(state!.recent[1]!.text));
    logs.mockRestore();
  });
});
