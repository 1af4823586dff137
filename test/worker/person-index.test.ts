/**
 * The index of the places a person spoke in, which "forget me" follows instead of scanning the database: written
 * by the ingest script, outliving every conversation it names (a conversation lives at most a day), and left with
 * only the places that still hold something of theirs once they were forgotten.
 */
import { Redis } from "@upstash/redis/cloudflare";
import { describe, expect, it } from "vitest";
import { ConversationStore } from "../../lib/conversation/store.ts";
import { conversationKeys, placeId, spokeKey } from "../../lib/keys.ts";
import { MessageEraser } from "../../lib/memory/erase-messages.ts";
import type { ConversationKey, InboundMessage } from "../../lib/message.ts";
import { suiteEnv } from "../support/worker.ts";

const env = suiteEnv("personindex");
const PREFIX = "t-personindex";
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
const store = new ConversationStore(redis, { prefix: PREFIX, ttlSeconds: () => 60, maxMessages: 200 });
const T0 = 1_700_000_000_000;
const DAY_MS = 86_400_000;
let seq = 0;

/** Places of a tenant of the test's own. */
function placesOfNewTenant(n: number): ConversationKey[] {
  const tenant = `TIDX${Date.now().toString(36).toUpperCase()}${++seq}`;
  return Array.from({ length: n }, (_, i) => ({ platform: "slack", tenant, channel: `C${i}` }));
}

/** What `person` wrote at `at` ms after T0 in `key`, recorded as the webhook records it. */
async function wrote(
  key: ConversationKey,
  person: string,
  at: number,
  opts: { trigger?: boolean; text?: string } = {},
) {
  const msg: InboundMessage = {
    key,
    id: `${key.channel}:${++seq}`,
    author: { id: person, name: person, isBot: false },
    text: opts.text ?? `${person} at ${at}`,
    ts: T0 + at,
    addressing: opts.trigger ? "mention" : "none",
    mentions: [],
    replyTarget: { platform: "slack", channel: key.channel },
  };
  return store.record(msg, { startIfIdle: opts.trigger ?? false, reset: false });
}

const indexOf = (key: ConversationKey, person: string) => redis.zrange<string[]>(spokeKey(PREFIX, key, person), 0, -1);

describe("a conversation's life", () => {
  it("ends a day after it started, at its next message: chatter is not recorded, a trigger starts a new one", async () => {
    const [key] = placesOfNewTenant(1) as [ConversationKey];
    const first = await wrote(key, "UANA", 0, { trigger: true });
    expect((await wrote(key, "UBEN", DAY_MS - 1)).status).toBe("recorded");
    expect((await wrote(key, "UBEN", DAY_MS + 1)).status).toBe("idle");
    expect(await store.load(key)).toBeNull();
    const next = await wrote(key, "UBEN", DAY_MS + 2, { trigger: true, text: "a new start" });
    expect(next.status).toBe("started");
    expect(next.state.id).not.toBe(first.state.id);
    expect(next.state.recent.map((m) => m.text)).toEqual(["a new start"]);
  });
});

describe("the index of the places a person spoke in", () => {
  it("holds each place its author spoke in, and outlives the longest conversation", async () => {
    const [here, there] = placesOfNewTenant(2) as [ConversationKey, ConversationKey];
    await wrote(here, "UANA", 1, { trigger: true });
    await wrote(here, "UBEN", 2);
    await wrote(here, "UANA", 3);
    await wrote(there, "UANA", 4, { trigger: true });
    expect(await indexOf(here, "UANA")).toEqual([placeId(here), placeId(there)]);
    expect(await indexOf(here, "UBEN")).toEqual([placeId(here)]);
    expect(await redis.ttl(spokeKey(PREFIX, here, "UANA"))).toBeGreaterThan(DAY_MS / 1000);
  });

  it("takes 'forget me' to every conversation the person spoke in, and keeps only the places they wrote in since", async () => {
    const [here, there, ended] = placesOfNewTenant(3) as [ConversationKey, ConversationKey, ConversationKey];
    for (const key of [here, there, ended]) {
      await wrote(key, "UANA", 1, { trigger: true, text: `about me in ${key.channel}` });
      await wrote(key, "UBEN", 2);
    }
    // Written after she asked: not forgotten, and still to be found by her next "forget me".
    await wrote(here, "UANA", 5, { text: "a question after it" });
    await redis.del(...Object.values(conversationKeys(PREFIX, ended)));
    const erased = await new MessageEraser(redis, PREFIX).eraseEverywhere(here, { personId: "UANA", through: T0 + 3 });
    expect(erased).toEqual({ conversations: 2, messages: 2 });
    expect((await store.load(here))!.recent.map((m) => m.text)).toEqual(["UBEN at 2", "a question after it"]);
    expect((await store.load(there))!.recent.map((m) => m.authorId)).toEqual(["UBEN"]);
    expect(await indexOf(here, "UANA")).toEqual([placeId(here)]);
  });
});
