/**
 * @module
 * The script that merges a place's earlier messages into a conversation that just started
 * (lib/conversation/backfill.ts):
 * in timestamp order, each message once by id, nobody under a forget mark, each author's index of places naming
 * the place, the conversation marked read so that a second merge does nothing, and never into a conversation that
 * expired or was reset.
 */
import { Redis } from "@upstash/redis/cloudflare";
import { describe, expect, it } from "vitest";
import { ConversationStore } from "../../lib/conversation/store.ts";
import { forgottenKey, placeId, spokeKey } from "../../lib/keys.ts";
import type { ConversationKey, InboundMessage, StoredMessage } from "../../lib/message.ts";
import { suiteEnv } from "../support/worker.ts";

const env = suiteEnv("backfillstore");
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
const PREFIX = "t-backfillstore";
const store = new ConversationStore(redis, { prefix: PREFIX, ttlSeconds: () => 120, maxMessages: 6 });
const T0 = 1_700_000_000_000;
let seq = 0;

function place(): ConversationKey {
  seq += 1;
  // A tenant of its own: message ids (and their dedupe marks) are unique per tenant.
  const id = `${Date.now().toString(36).toUpperCase()}${seq}`;
  return { platform: "slack", tenant: `TBACKFILL${id}`, channel: `C${id}` };
}

function mention(key: ConversationKey, n: number): InboundMessage {
  return {
    key,
    id: `m${n}`,
    author: { id: "UCAROL", name: "Carol", isBot: false },
    text: `@Parley what do you think? ${n}`,
    ts: T0 + n * 1000,
    addressing: "mention",
    mentions: ["UPARLEYBOT"],
    replyTarget: { platform: "slack", channel: key.channel },
  };
}

const read = (n: number, author = "UALICE"): StoredMessage => ({
  id: `m${n}`,
  role: "user",
  authorId: author,
  authorName: author,
  text: `earlier ${n}`,
  ts: T0 + n * 1000,
  backfilled: true,
});

async function started(key: ConversationKey): Promise<string> {
  const { state } = await store.record(mention(key, 10), { startIfIdle: true, reset: false });
  return state.id;
}

describe("merging a place's earlier messages into a conversation", () => {
  it("puts them before the trigger in timestamp order, each once, and marks the conversation read", async () => {
    const key = place();
    const id = await started(key);
    const result = await store.backfill.merge(key, id, [read(3), read(1, "UBOB"), read(10), read(2)], T0 + 11_000);
    // The trigger (m10) was recorded already: it stays as it is.
    expect(result).toEqual({ status: "merged", added: [read(3), read(1, "UBOB"), read(2)] });
    const conversation = (await store.load(key))!;
    expect(conversation.recent.map((m) => m.id)).toEqual(["m1", "m2", "m3", "m10"]);
    expect(conversation.recent.at(-1)!.backfilled).toBeUndefined();
    expect(conversation.backfilled).toBe(true);
    expect(await store.backfill.merge(key, id, [read(4)], T0 + 12_000)).toEqual({ status: "read" });
    expect((await store.load(key))!.recent).toHaveLength(4);
  });

  it("leaves out a person's messages written before they asked to be forgotten, and indexes the place for the others", async () => {
    const key = place();
    const id = await started(key);
    await redis.set(forgottenKey(PREFIX, key, "UALICE"), String(T0 + 2_500));
    await store.backfill.merge(key, id, [read(1), read(2, "UBOB"), read(3)], T0 + 11_000);
    expect((await store.load(key))!.recent.map((m) => m.id)).toEqual(["m2", "m3", "m10"]);
    expect(await redis.zrange(spokeKey(PREFIX, key, "UBOB"), 0, -1)).toEqual([placeId(key)]);
    expect(await redis.ttl(spokeKey(PREFIX, key, "UBOB"))).toBeGreaterThan(0);
  });

  it("keeps the log within its cap, the oldest going first", async () => {
    const key = place();
    const id = await started(key);
    await store.backfill.merge(
      key,
      id,
      [1, 2, 3, 4, 5, 6, 7, 8].map((n) => read(n)),
      T0 + 11_000,
    );
    const kept = (await store.load(key))!.recent.map((m) => m.id);
    expect(kept.at(-1)).toBe("m10");
    expect(kept.length).toBeLessThanOrEqual(6);
    expect(kept).toEqual([...kept].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))));
  });

  it("never merges into a conversation that expired or was reset", async () => {
    const key = place();
    await started(key);
    expect(await store.backfill.merge(key, "another-conversation", [read(1)], T0 + 11_000)).toEqual({ status: "gone" });
    expect(await store.backfill.merge(place(), "none", [read(1)], T0 + 11_000)).toEqual({ status: "gone" });
    expect((await store.load(key))!.recent.map((m) => m.id)).toEqual(["m10"]);
  });
});
