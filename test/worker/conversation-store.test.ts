import { Redis } from "@upstash/redis/cloudflare";
import { describe, expect, it } from "vitest";
import { ConversationStore } from "../../lib/conversation/store.ts";
import type { InboundMessage } from "../../lib/message.ts";
import { suiteEnv } from "../support/worker.ts";

const env = suiteEnv("store");
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
const PREFIX = "t-store";
let seq = 0;

function newStore(opts: { ttl?: number; cap?: number } = {}) {
  return new ConversationStore(redis, { prefix: PREFIX, ttlSeconds: () => opts.ttl ?? 60, maxMessages: opts.cap ?? 200 });
}

function place() {
  seq += 1;
  return { platform: "slack" as const, tenant: "TSTORE", channel: `C${Date.now()}-${seq}` };
}

function message(key: ReturnType<typeof place>, n: number, text = `message ${n}`): InboundMessage {
  return {
    key,
    id: `${key.channel}:${n}`,
    author: { id: `U${n % 3}`, name: `user${n % 3}`, isBot: false },
    text,
    ts: 1_700_000_000_000 + n,
    addressing: "none",
    mentions: [],
    replyTarget: { platform: "slack", channel: key.channel },
  };
}

const now = () => Date.now();

/** The bot answers `trigger`, having seen the conversation up to `through`. */
async function answer(store: ConversationStore, conversationId: string, trigger: InboundMessage, through: InboundMessage) {
  await store.recordReply(trigger.key, {
    conversationId,
    triggerId: trigger.id,
    reply: { id: `bot-${trigger.id}`, role: "assistant", authorId: "UBOT", authorName: "Parley", text: "an answer", ts: through.ts + 1 },
    answeredThrough: { id: through.id, ts: through.ts },
    answered: [through.author.id],
  });
}

describe("the conversation store", () => {
  it("does not start a conversation for a message that is not a trigger", async () => {
    const store = newStore();
    const key = place();
    const result = await store.record(message(key, 1), { startIfIdle: false, reset: false, now: now() });
    expect(result.status).toBe("idle");
    expect(await store.load(key)).toBeNull();
  });

  it("records 50 messages that arrive at once, each exactly once and in timestamp order", async () => {
    const store = newStore();
    const key = place();
    await store.record(message(key, 0), { startIfIdle: true, reset: false, now: now() });
    const burst = Array.from({ length: 50 }, (_, i) => message(key, 50 - i));
    const deliveries = [...burst, ...burst.slice(0, 10)];
    const results = await Promise.all(deliveries.map((m) => store.record(m, { startIfIdle: false, reset: false, now: now() })));
    expect(results.filter((r) => r.status === "recorded")).toHaveLength(50);
    expect(results.filter((r) => r.status === "duplicate")).toHaveLength(10);
    const state = await store.load(key);
    expect(state!.recent.map((m) => m.text)).toEqual(Array.from({ length: 51 }, (_, i) => `message ${i}`));
  });

  it("gives every key of a conversation the same TTL, renewed by any message", async () => {
    const store = newStore({ ttl: 30 });
    const key = place();
    await store.record(message(key, 1), { startIfIdle: true, reset: false, now: now() });
    const keys = await redis.keys(`${PREFIX}:conv:*${key.channel}*`);
    expect(keys).toHaveLength(2);
    for (const k of keys) expect(await redis.ttl(k)).toBeGreaterThan(25);
    await redis.expire(keys[0]!, 5);
    await redis.expire(keys[1]!, 5);
    await store.record(message(key, 2), { startIfIdle: false, reset: false, now: now() });
    for (const k of keys) expect(await redis.ttl(k)).toBeGreaterThan(25);
  });

  it("keeps only the newest messages up to the cap", async () => {
    const store = newStore({ cap: 10 });
    const key = place();
    await store.record(message(key, 0), { startIfIdle: true, reset: false, now: now() });
    for (let n = 1; n < 25; n++) await store.record(message(key, n), { startIfIdle: false, reset: false, now: now() });
    const state = await store.load(key);
    expect(state!.recent.map((m) => m.text)).toEqual(Array.from({ length: 10 }, (_, i) => `message ${i + 15}`));
  });

  it("starts a fresh conversation on a reset", async () => {
    const store = newStore();
    const key = place();
    const first = await store.record(message(key, 1), { startIfIdle: true, reset: false, now: now() });
    await store.record(message(key, 2), { startIfIdle: false, reset: false, now: now() });
    const reset = await store.record(message(key, 3, "start over"), { startIfIdle: true, reset: true, now: now() });
    expect(reset.status).toBe("started");
    expect(reset.state.id).not.toBe(first.state.id);
    expect(reset.state.recent.map((m) => m.text)).toEqual(["start over"]);
  });

  it("lets exactly one of several concurrent jobs claim the answer, and none after it is recorded", async () => {
    const store = newStore();
    const key = place();
    const trigger = message(key, 1);
    const { state } = await store.record(trigger, { startIfIdle: true, reset: false, now: now() });
    const claims = await Promise.all(Array.from({ length: 5 }, () => store.claimReply(key, state.id, trigger)));
    expect(claims.filter((c) => c.status === "claimed")).toHaveLength(1);
    expect(claims.filter((c) => c.status === "busy")).toHaveLength(4);
    await answer(store, state.id, trigger, trigger);
    expect((await store.claimReply(key, state.id, trigger)).status).toBe("done");
  });

  it("tells a later job that an earlier answer already saw its message", async () => {
    const store = newStore();
    const key = place();
    const a = message(key, 1);
    const b = message(key, 2);
    const { state } = await store.record(a, { startIfIdle: true, reset: false, now: now() });
    await store.record(b, { startIfIdle: false, reset: false, now: now() });
    expect((await store.claimReply(key, state.id, a)).status).toBe("claimed");
    await answer(store, state.id, a, b);
    expect((await store.claimReply(key, state.id, b)).status).toBe("covered");
  });

  it("does not take a message of the same millisecond as seen by an answer to another one", async () => {
    const store = newStore();
    const key = place();
    const a = message(key, 1);
    const b = { ...message(key, 2), ts: a.ts };
    const { state } = await store.record(a, { startIfIdle: true, reset: false, now: now() });
    await store.record(b, { startIfIdle: false, reset: false, now: now() });
    expect((await store.claimReply(key, state.id, a)).status).toBe("claimed");
    await answer(store, state.id, a, a);
    expect((await store.claimReply(key, state.id, a)).status).toBe("done");
    expect((await store.claimReply(key, state.id, b)).status).toBe("claimed");
  });

  it("gives a released claim to the next attempt", async () => {
    const store = newStore();
    const key = place();
    const trigger = message(key, 1);
    const { state } = await store.record(trigger, { startIfIdle: true, reset: false, now: now() });
    expect((await store.claimReply(key, state.id, trigger)).status).toBe("claimed");
    await store.releaseClaim(key, trigger.id);
    expect((await store.claimReply(key, state.id, trigger)).status).toBe("claimed");
  });
});
