/**
 * @module
 * What Parley keeps of a place whose platform cannot be asked for its history (IngestOptions.keepHistory,
 * lib/conversation/kept.ts): every message, answered or not, in the same round trip as its record; the channel's
 * last N, each once however often it is delivered, living BACKFILL_MINUTES after the last; read back per topic and
 * time window; a person's taken out by "forget me"; nothing at all for a platform that did not ask.
 */
import { Redis } from "@upstash/redis/cloudflare";
import { describe, expect, it } from "vitest";
import { ConversationStore } from "../../lib/conversation/store.ts";
import { keptKey } from "../../lib/keys.ts";
import type { ConversationKey, InboundMessage } from "../../lib/message.ts";
import { suiteEnv } from "../support/worker.ts";

const env = suiteEnv("kept");
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
const PREFIX = "t-kept";
const store = new ConversationStore(redis, { prefix: PREFIX, ttlSeconds: () => 120, maxMessages: 200 });
const KEPT = { messages: 3, ttlSeconds: 600 };
let seq = 0;

function chat(): ConversationKey {
  seq += 1;
  const id = `-100${Date.now()}${seq}`;
  return { platform: "telegram", tenant: `7000000001:${id}`, channel: id };
}

function message(key: ConversationKey, n: number, author = `P${n % 2}`): InboundMessage {
  return {
    key,
    id: String(n),
    author: { id: author, name: `Person ${author}`, isBot: false },
    text: `message ${n}`,
    ts: 1_700_000_000_000 + n * 1000,
    addressing: "none",
    mentions: [],
    replyTarget: { platform: "telegram", chatId: Number(key.channel), chatType: "supergroup" },
  };
}

const chatter = (m: InboundMessage, kept: typeof KEPT | null = KEPT) =>
  store.record(m, { startIfIdle: false, reset: false, ...(kept ? { kept } : {}) });
const everything = { since: 0, before: Number.MAX_SAFE_INTEGER, limit: 100 };

describe("the kept messages of a channel", () => {
  it("hold its last N messages, answered or not, each once however often it is delivered, for BACKFILL_MINUTES", async () => {
    const key = chat();
    for (const n of [1, 2, 2, 3]) expect((await chatter(message(key, n))).status).toBe("idle");
    const started = await store.record(message(key, 4), { startIfIdle: true, reset: false, kept: KEPT });
    expect(started.status).toBe("started");
    await chatter(message(key, 5));
    expect((await store.kept.between(key, everything)).map((m) => m.text)).toEqual([
      "message 3",
      "message 4",
      "message 5",
    ]);
    expect(await redis.ttl(keptKey(PREFIX, key))).toBeGreaterThan(590);
  });

  it("are read back per topic and time window, the last `limit` of them", async () => {
    const general = chat();
    const topic = { ...general, thread: "42" };
    await chatter(message(general, 1));
    await chatter(message(topic, 2));
    await chatter(message(general, 3));
    expect((await store.kept.between(general, everything)).map((m) => m.id)).toEqual(["1", "3"]);
    expect((await store.kept.between(topic, everything)).map((m) => m.id)).toEqual(["2"]);
    const t = (n: number) => message(general, n).ts;
    expect((await store.kept.between(general, { since: t(2), before: t(3), limit: 10 })).map((m) => m.id)).toEqual([]);
    expect((await store.kept.between(general, { since: 0, before: t(3) + 1, limit: 1 })).map((m) => m.id)).toEqual([
      "3",
    ]);
  });

  it("lose a person's messages up to their forget, and no one else's", async () => {
    const key = chat();
    for (const n of [1, 2, 3]) await chatter(message(key, n, n === 2 ? "BOB" : "ALICE"));
    expect(await store.kept.eraseEverywhere(key, key, "ALICE", message(key, 1).ts)).toBe(1);
    expect((await store.kept.between(key, everything)).map((m) => m.id)).toEqual(["2", "3"]);
  });

  it("are not kept at all for a platform that did not ask", async () => {
    const key = { platform: "slack" as const, tenant: "TKEPT", channel: `C${Date.now()}` };
    await chatter({ ...message({ ...key }, 1), replyTarget: { platform: "slack", channel: key.channel } }, null);
    expect(await redis.exists(keptKey(PREFIX, key))).toBe(0);
  });
});
