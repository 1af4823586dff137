import { Redis } from "@upstash/redis/cloudflare";
import { describe, expect, it } from "vitest";
import { ConversationStore, DECIDER_WINDOW } from "../../lib/conversation/store.ts";
import { conversationKeys } from "../../lib/keys.ts";
import { MessageEraser } from "../../lib/memory/erase-messages.ts";
import type { InboundMessage } from "../../lib/message.ts";
import { suiteEnv } from "../support/worker.ts";

const env = suiteEnv("store");
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
const PREFIX = "t-store";
let seq = 0;

function newStore(opts: { ttl?: number; cap?: number } = {}) {
  return new ConversationStore(redis, {
    prefix: PREFIX,
    ttlSeconds: () => opts.ttl ?? 60,
    maxMessages: opts.cap ?? 200,
  });
}

function place() {
  seq += 1;
  return { platform: "slack" as const, tenant: "TSTORE", channel: `C${Date.now()}-${seq}` };
}

const texts = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `message ${from + i}`);

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

const triggerOf = (m: InboundMessage) => ({ id: m.id, ts: m.ts, authorId: m.author.id });
/** A job's attempt at answering `trigger`. */
const claim = (store: ConversationStore, conversationId: string, trigger: InboundMessage) =>
  store.replies.claimReply(trigger.key, conversationId, triggerOf(trigger), crypto.randomUUID());

/** The bot answers `trigger`: its answer is for `through`, and it read the conversation when `arrivals` had come. */
async function answer(
  store: ConversationStore,
  conversationId: string,
  trigger: InboundMessage,
  through: InboundMessage,
  arrivals = 1_000,
) {
  await store.replies.recordReply(trigger.key, {
    conversationId,
    triggerId: trigger.id,
    reply: {
      id: `bot-${trigger.id}`,
      role: "assistant",
      authorId: "UBOT",
      authorName: "Parley",
      text: "an answer",
      ts: through.ts + 1,
    },
    answeredThrough: { id: through.id, ts: through.ts },
    answered: [through.author.id],
    arrivals,
  });
}

/** A conversation started by the first of `messages`, with the others recorded after it; answers its id. */
async function conversationOf(store: ConversationStore, ...messages: InboundMessage[]): Promise<string> {
  const { state } = await store.record(messages[0]!, { startIfIdle: true, reset: false });
  for (const m of messages.slice(1)) await store.record(m, { startIfIdle: false, reset: false });
  return state.id;
}

/** What the claim read: the log's arrival count (0 when there was nothing to claim). */
const arrivalsOf = (result: Awaited<ReturnType<typeof claim>>) => (result.status === "claimed" ? result.arrivals : 0);

describe("the conversation store", () => {
  it("does not start a conversation for a message that is not a trigger", async () => {
    const store = newStore();
    const key = place();
    const result = await store.record(message(key, 1), { startIfIdle: false, reset: false });
    expect(result.status).toBe("idle");
    expect(await store.load(key)).toBeNull();
  });

  it("records 50 messages that arrive at once, each exactly once and in timestamp order", async () => {
    const store = newStore();
    const key = place();
    await store.record(message(key, 0), { startIfIdle: true, reset: false });
    const burst = Array.from({ length: 50 }, (_, i) => message(key, 50 - i));
    const deliveries = [...burst, ...burst.slice(0, 10)];
    const results = await Promise.all(deliveries.map((m) => store.record(m, { startIfIdle: false, reset: false })));
    expect(results.filter((r) => r.status === "recorded")).toHaveLength(50);
    // Nothing has started a job on them yet: each repeated delivery may be the one that has to publish it.
    expect(results.filter((r) => r.status === "unpublished")).toHaveLength(10);
    const state = await store.load(key);
    expect(state!.recent.map((m) => m.text)).toEqual(Array.from({ length: 51 }, (_, i) => `message ${i}`));
  });

  it("gives every key of a conversation the same TTL, renewed by any message", async () => {
    const store = newStore({ ttl: 30 });
    const key = place();
    await store.record(message(key, 1), { startIfIdle: true, reset: false });
    const keys = await redis.keys(`${PREFIX}:conv:*${key.channel}*`);
    expect(keys).toHaveLength(2);
    for (const k of keys) expect(await redis.ttl(k)).toBeGreaterThan(25);
    await redis.expire(keys[0]!, 5);
    await redis.expire(keys[1]!, 5);
    await store.record(message(key, 2), { startIfIdle: false, reset: false });
    for (const k of keys) expect(await redis.ttl(k)).toBeGreaterThan(25);
  });

  it("keeps only the newest messages up to the cap", async () => {
    const store = newStore({ cap: 10 });
    const key = place();
    await store.record(message(key, 0), { startIfIdle: true, reset: false });
    for (let n = 1; n < 25; n++) await store.record(message(key, n), { startIfIdle: false, reset: false });
    const state = await store.load(key);
    expect(state!.recent.map((m) => m.text)).toEqual(Array.from({ length: 10 }, (_, i) => `message ${i + 15}`));
  });

  it("starts a fresh conversation on a reset", async () => {
    const store = newStore();
    const key = place();
    const first = await store.record(message(key, 1), { startIfIdle: true, reset: false });
    await store.record(message(key, 2), { startIfIdle: false, reset: false });
    const reset = await store.record(message(key, 3, "start over"), { startIfIdle: true, reset: true });
    expect(reset.status).toBe("started");
    expect(reset.state.id).not.toBe(first.state.id);
    expect(reset.state.recent.map((m) => m.text)).toEqual(["start over"]);
  });

  it("lets exactly one of several concurrent jobs claim the answer, and none after it is recorded", async () => {
    const store = newStore();
    const key = place();
    const trigger = message(key, 1);
    const { state } = await store.record(trigger, { startIfIdle: true, reset: false });
    const claims = await Promise.all(Array.from({ length: 5 }, () => claim(store, state.id, trigger)));
    expect(claims.filter((c) => c.status === "claimed")).toHaveLength(1);
    expect(claims.filter((c) => c.status === "busy")).toHaveLength(4);
    await answer(store, state.id, trigger, trigger);
    expect((await claim(store, state.id, trigger)).status).toBe("done");
  });

  it("tells a later job that an earlier answer for the same person already saw its message", async () => {
    const store = newStore();
    const key = place();
    const a = message(key, 1);
    const b = { ...message(key, 2), author: a.author };
    const id = await conversationOf(store, a, b);
    const first = await claim(store, id, a);
    expect(first).toMatchObject({ status: "claimed", arrivals: 2, first: true });
    await answer(store, id, a, b, arrivalsOf(first));
    expect((await claim(store, id, b)).status).toBe("covered");
  });

  it("does not take another person's trigger as answered by an answer that only read it", async () => {
    const store = newStore();
    const key = place();
    const bob = message(key, 1);
    const alice = message(key, 2);
    expect(alice.author.id).not.toBe(bob.author.id);
    const id = await conversationOf(store, bob, alice);
    await answer(store, id, alice, alice, arrivalsOf(await claim(store, id, alice)));
    expect((await claim(store, id, bob)).status).toBe("claimed");
  });

  it("does not take an older message that arrived after the answer read the conversation as seen by it", async () => {
    const store = newStore();
    const key = place();
    const later = message(key, 2);
    const late = { ...message(key, 1), author: later.author };
    const { state } = await store.record(later, { startIfIdle: true, reset: false });
    const answering = await claim(store, state.id, later);
    // Delivered while the answer is being written (or after): the answer never saw it.
    await store.record(late, { startIfIdle: false, reset: false });
    await answer(store, state.id, later, later, arrivalsOf(answering));
    expect((await claim(store, state.id, late)).status).toBe("claimed");
  });

  it("does not take a message of the same millisecond as seen by an answer to another one", async () => {
    const store = newStore();
    const key = place();
    const a = message(key, 1);
    const b = { ...message(key, 2), ts: a.ts, author: a.author };
    const id = await conversationOf(store, a, b);
    const first = await claim(store, id, a);
    expect(first.status).toBe("claimed");
    await answer(store, id, a, a, arrivalsOf(first));
    expect((await claim(store, id, a)).status).toBe("done");
    expect((await claim(store, id, b)).status).toBe("claimed");
  });

  it("gives a released claim to the next attempt with what the first one got out", async () => {
    const store = newStore();
    const key = place();
    const trigger = message(key, 1);
    const { state } = await store.record(trigger, { startIfIdle: true, reset: false });
    const token = crypto.randomUUID();
    expect((await store.replies.claimReply(key, state.id, triggerOf(trigger), token)).status).toBe("claimed");
    await store.replies.releaseClaim(key, trigger.id, token, {
      text: "half of it",
      outcome: "answered",
      posted: ["m1"],
    });
    expect(await claim(store, state.id, trigger)).toMatchObject({
      status: "claimed",
      first: false,
      draft: { text: "half of it", posted: ["m1"] },
    });
  });

  it("tells a delivery of a message on which no job has started from one on which a job has", async () => {
    const store = newStore();
    const key = place();
    const trigger = message(key, 1);
    const { state } = await store.record(trigger, { startIfIdle: true, reset: false });
    expect((await store.record(trigger, { startIfIdle: true, reset: false })).status).toBe("unpublished");
    await claim(store, state.id, trigger);
    expect((await store.record(trigger, { startIfIdle: true, reset: false })).status).toBe("duplicate");
  });

  it("never holds more than the cap, dropping a tenth of it at once so that a long conversation is trimmed rarely", async () => {
    const store = newStore({ cap: 20 });
    const key = place();
    await store.record(message(key, 0), { startIfIdle: true, reset: false });
    const sizes: number[] = [];
    for (let n = 1; n < 60; n++) {
      await store.record(message(key, n), { startIfIdle: false, reset: false });
      sizes.push((await store.load(key))!.recent.length);
    }
    expect(Math.max(...sizes)).toBe(20);
    expect(Math.min(...sizes.slice(20))).toBe(19);
    const { recent } = (await store.load(key))!;
    expect(recent.map((m) => m.text)).toEqual(texts(60 - recent.length, 59));
  });

  it("counts the bot's answers and a folded summary against the cap", async () => {
    const store = newStore({ cap: 10 });
    const key = place();
    const first = message(key, 0);
    const { state } = await store.record(first, { startIfIdle: true, reset: false });
    for (let n = 1; n < 6; n++) await store.record(message(key, n), { startIfIdle: false, reset: false });
    await answer(store, state.id, first, message(key, 5));
    for (let n = 6; n < 10; n++) await store.record(message(key, n), { startIfIdle: false, reset: false });
    // 10 messages and the answer: the oldest had to go.
    expect((await store.load(key))!.recent).toHaveLength(10);
    expect(
      await store.foldSummary(key, {
        conversationId: state.id,
        previousSummary: "",
        summary: "they counted",
        through: message(key, 5).ts,
      }),
    ).toBe(true);
    const afterFold = (await store.load(key))!;
    expect(afterFold.summary).toBe("they counted");
    // The answer (a millisecond after message 5) stays: it is newer than the fold.
    expect(afterFold.recent.map((m) => m.text)).toEqual(["message 6", "an answer", ...texts(7, 9)]);
    for (let n = 10; n < 15; n++) await store.record(message(key, n), { startIfIdle: false, reset: false });
    expect((await store.load(key))!.recent.map((m) => m.text)).toEqual(["message 6", "an answer", ...texts(7, 14)]);
    await store.record(message(key, 15), { startIfIdle: false, reset: false });
    expect((await store.load(key))!.recent.map((m) => m.text)).toEqual(["an answer", ...texts(7, 15)]);
  });

  it("hands the decider the latest messages ending with the one to decide, even when it arrives late", async () => {
    const store = newStore();
    const key = place();
    await store.record(message(key, 0), { startIfIdle: true, reset: false });
    for (let n = 1; n < 40; n++) await store.record(message(key, n), { startIfIdle: false, reset: false });
    const late = { ...message(key, 40, "late"), ts: message(key, 20).ts - 1 };
    const { state } = await store.record(late, { startIfIdle: false, reset: false });
    expect(state.recent).toHaveLength(DECIDER_WINDOW);
    expect(state.recent.at(-1)!.text).toBe("late");
    expect(state.recent.at(-2)!.text).toBe("message 39");
    const redelivered = await store.record(late, { startIfIdle: false, reset: false });
    expect(redelivered.status).toBe("unpublished");
    expect(redelivered.state.recent.filter((m) => m.text === "late")).toHaveLength(1);
    expect(redelivered.state.recent.at(-1)!.text).toBe("late");
  });

  it("tells the decider when the bot last answered and whom", async () => {
    const store = newStore();
    const key = place();
    const trigger = message(key, 1);
    const { state } = await store.record(trigger, { startIfIdle: true, reset: false });
    expect(state.lastBotReplyAt).toBeUndefined();
    await answer(store, state.id, trigger, trigger);
    const next = await store.record(message(key, 2), { startIfIdle: false, reset: false });
    expect(next.state).toMatchObject({
      id: state.id,
      lastBotReplyAt: trigger.ts + 1,
      lastBotReplyTo: [trigger.author.id],
    });
    expect(next.state.recent.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  });
});

describe("the parent a conversation is about", () => {
  const parentBy = (authorId: string, ts: number) => ({
    id: "C0PARENT:1.000001",
    role: "user" as const,
    authorId,
    authorName: authorId,
    text: "what the thread is about",
    ts,
  });

  it("is kept with the conversation once found, and comes back with it to every later job", async () => {
    const store = newStore();
    const first = message(place(), 1);
    const id = await conversationOf(store, first);
    await store.rememberParent(first.key, id, "C0PARENT:1.000001", parentBy("U2", 1_600_000_000_000));
    await store.rememberParent(first.key, id, "", false);
    const claimed = await claim(store, id, first);
    expect(claimed.status === "claimed" && claimed.state?.parents).toEqual({
      "C0PARENT:1.000001": parentBy("U2", 1_600_000_000_000),
      "": false,
    });
    // A conversation that was reset in the meantime keeps nothing of the old one's.
    await store.rememberParent(first.key, "an-older-conversation", "C0OTHER:2.000002", parentBy("U2", 1));
    expect(Object.keys((await store.load(first.key))!.parents!).sort()).toEqual(["", "C0PARENT:1.000001"]);
  });

  it("goes when its author asks to be forgotten, and is not looked up again", async () => {
    const store = newStore();
    const first = message(place(), 1);
    const id = await conversationOf(store, first);
    await store.rememberParent(first.key, id, "C0PARENT:1.000001", parentBy("U2", 1_600_000_000_000));
    await new MessageEraser(redis, PREFIX).erase(conversationKeys(PREFIX, first.key), {
      personId: "U2",
      through: Date.now(),
    });
    expect((await store.load(first.key))!.parents).toEqual({ "C0PARENT:1.000001": false });
  });
});
