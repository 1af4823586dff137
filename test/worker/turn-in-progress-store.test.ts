/**
 * @module
 * The bot's turn while its answer streams, in the store (lib/conversation/speaking.ts): the opening save puts it in
 * the conversation's state, the next message recorded sees it in its place, the recorded answer replaces it (the
 * log holds the answer once) and "forget me" takes it with the person's answers.
 */
import { Redis } from "@upstash/redis/cloudflare";
import { describe, expect, it } from "vitest";
import { ConversationStore } from "../../lib/conversation/store.ts";
import { conversationKeys } from "../../lib/keys.ts";
import { MessageEraser } from "../../lib/memory/erase-messages.ts";
import type { InboundMessage, StoredMessage } from "../../lib/message.ts";
import { suiteEnv } from "../support/worker.ts";

const env = suiteEnv("speaking");
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
const PREFIX = "t-speaking";
const T0 = 1_700_000_000_000;
const store = new ConversationStore(redis, { prefix: PREFIX, ttlSeconds: () => 60, maxMessages: 200 });
let seq = 0;

function said(key: InboundMessage["key"], n: number, author: string, text: string): InboundMessage {
  return {
    key,
    id: `${key.channel}:${n}`,
    author: { id: author, name: author.toLowerCase(), isBot: false },
    text,
    ts: T0 + n * 1_000,
    addressing: "none",
    mentions: [],
    replyTarget: { platform: "slack", channel: key.channel },
  };
}

/** Maya asked; the bot's answer to her began to show 2 s later. */
async function answerStreaming() {
  seq += 1;
  const key = { platform: "slack" as const, tenant: "TSPEAK", channel: `C${Date.now()}-${seq}` };
  const question = said(key, 0, "UMAYA", "parley: how many bytes are in a kilobyte?");
  const { state } = await store.record(question, { startIfIdle: true, reset: false });
  const turn: StoredMessage = {
    id: `speaking-${question.id}`,
    role: "assistant",
    authorId: "UBOT",
    authorName: "Parley",
    text: "A kilobyte is",
    ts: T0 + 2_000,
    replyToAuthorId: "UMAYA",
  };
  await store.replies.saveOpeningDraft(key, state.id, question.id, { posted: [], speakingSince: turn.ts }, turn);
  return { key, question, conversationId: state.id, turn };
}

const rawState = async (key: InboundMessage["key"]) =>
  JSON.parse(String(JSON.stringify(await redis.get(conversationKeys(PREFIX, key).state)))) as Record<string, unknown>;

describe("the bot's turn while its answer streams", () => {
  it("is seen by the next message in its place, and kept with the draft in the same step", async () => {
    const { key, question, turn } = await answerStreaming();
    const { state } = await store.record(said(key, 5, "UOWEN", "and what about a megabyte?"), {
      startIfIdle: false,
      reset: false,
    });
    expect(state.recent.map((m) => m.id)).toEqual([question.id, turn.id, `${key.channel}:5`]);
    expect(state).toMatchObject({ lastBotReplyAt: turn.ts, lastBotReplyTo: ["UMAYA"] });
    const claimed = await store.replies.claimReply(
      key,
      state.id,
      { id: question.id, ts: question.ts, authorId: "UMAYA" },
      "token",
    );
    expect(claimed.status === "claimed" && claimed.draft.speakingSince).toBe(turn.ts);
    // The jobs read the log as recorded: the turn so far is only what the decider is told.
    expect(claimed.status === "claimed" && claimed.state!.recent.map((m) => m.role)).toEqual(["user", "user"]);
  });

  it("is replaced by the answer recorded: the log holds the bot's turn once, where it began to show", async () => {
    const { key, question, conversationId, turn } = await answerStreaming();
    await store.record(said(key, 5, "UOWEN", "and what about a megabyte?"), { startIfIdle: false, reset: false });
    await store.replies.recordReply(key, {
      conversationId,
      triggerId: question.id,
      reply: { ...turn, id: "posted-1", text: "A kilobyte is 1,000 bytes; a kibibyte is 1,024." },
      answeredThrough: { id: question.id, ts: question.ts },
      answered: ["UMAYA"],
      arrivals: 1,
    });
    expect((await store.load(key))!.recent.map((m) => `${m.role} ${m.id}`)).toEqual([
      `user ${question.id}`,
      "assistant posted-1",
      `user ${key.channel}:5`,
    ]);
    expect(await rawState(key)).not.toHaveProperty("speaking");
  });

  it("goes when the person it answers asks to be forgotten", async () => {
    const { key } = await answerStreaming();
    await new MessageEraser(redis, PREFIX).erase(conversationKeys(PREFIX, key), {
      personId: "UMAYA",
      through: Date.now(),
    });
    expect(await rawState(key)).not.toHaveProperty("speaking");
    const { state } = await store.record(said(key, 5, "UOWEN", "and what about a megabyte?"), {
      startIfIdle: false,
      reset: false,
    });
    expect(state.recent.map((m) => m.role)).toEqual(["user"]);
  });
});
