/**
 * @module
 * The place's earlier messages merged into a conversation that just started (lib/jobs/backfill.ts reads them from
 * the platform): one script, so that the conversation sees them as if the bot had been there, in timestamp order,
 * each message once (by id: one the conversation recorded already stays as it is), without any message of a person
 * who asked to be forgotten since it was written, and each author's index of places (`spoke:`) then names the
 * place, so that their "forget me" reaches it. The conversation is marked as read, merged or not, so that it is
 * read once.
 */
import type { Redis } from "@upstash/redis/cloudflare";
import { conversationKeys, forgottenKey, placeId, spokeKey } from "../keys.ts";
import type { ConversationKey, StoredMessage } from "../message.ts";
import { COUNTING_MEMBERS, LENGTH_BASE, LENGTH_MEMBER, MESSAGES_BELOW } from "./scripts.ts";
import { keptAfterTrim, spokeTtlSeconds, type StoreOptions } from "./store-options.ts";
import { defineScript } from "../redis-script.ts";
import * as z from "../zod.ts";
import { scriptResultSchema, storedMessages } from "./stored-state.ts";

/**
 * Keys: the conversation's `state` and `log`, and for each author (in `authors`' order) their forget mark
 * (`forgotten`) and their index of places (`spoke`). Arguments: the `conversationId`, the stored `messages` (each
 * a JSON text, with `backfilled`), their `authors`' ids, the log's `cap`, how many messages a trim keeps
 * (`keptAfterTrim`), the `place`'s id, the index's `spokeTtl` (s), and `now` (ms).
 * Returns `gone` (the conversation expired or was reset: never resurrected), `read` (an earlier attempt merged
 * already) or `merged` with the messages that went in (`recent`). The log's length is recounted, and trimmed (the
 * oldest first) when over its cap; its arrival count stays: these messages never arrived as deliveries.
 */
const MERGE_BACKFILL = defineScript({
  keys: { state: "key", log: "key", forgotten: "list", spoke: "list" },
  args: z.object({
    conversationId: z.string(),
    messages: z.array(z.string()),
    authors: z.array(z.string()),
    cap: z.number(),
    keptAfterTrim: z.number(),
    place: z.string(),
    spokeTtl: z.number(),
    now: z.number(),
  }),
  result: scriptResultSchema,
  lua: `
local current = redis.call('GET', K.state)
if not current then return cjson.encode({status = 'gone'}) end
local s = cjson.decode(current)
if s.id ~= A.conversationId then return cjson.encode({status = 'gone'}) end
if s.backfilled then return cjson.encode({status = 'read'}) end
local forgottenAt, index = {}, {}
if #A.authors > 0 then
  local found = redis.call('MGET', unpack(K.forgotten))
  for i, author in ipairs(A.authors) do
    forgottenAt[author] = found[i] and tonumber(found[i]) or -1
    index[author] = K.spoke[i]
  end
end
local known = {}
for _, raw in ipairs(redis.call('ZRANGEBYSCORE', K.log, '-inf', '${MESSAGES_BELOW}')) do
  known[cjson.decode(raw).id] = true
end
local adds, spoke, added = {}, {}, {}
for _, raw in ipairs(A.messages) do
  local m = cjson.decode(raw)
  if not known[m.id] and m.ts > (forgottenAt[m.authorId] or -1) then
    known[m.id] = true
    added[#added + 1] = raw
    adds[#adds + 1] = m.ts
    adds[#adds + 1] = raw
    spoke[m.authorId] = true
  end
end
if #added > 0 then
  redis.call('ZADD', K.log, unpack(adds))
  local length = redis.call('ZCOUNT', K.log, '-inf', '${MESSAGES_BELOW}')
  if length > A.cap then
    length = A.keptAfterTrim
    redis.call('ZREMRANGEBYRANK', K.log, 0, -length - ${COUNTING_MEMBERS + 1})
  end
  redis.call('ZADD', K.log, ${LENGTH_BASE} + length, '${LENGTH_MEMBER}')
  for author in pairs(spoke) do
    redis.call('ZADD', index[author], A.now, A.place)
    redis.call('EXPIRE', index[author], A.spokeTtl)
  end
end
s.backfilled = true
redis.call('SET', K.state, cjson.encode(s), 'KEEPTTL')
return cjson.encode({status = 'merged', recent = added})
`,
});

export type BackfillResult = { status: "gone" | "read" } | { status: "merged"; added: StoredMessage[] };

export class BackfillStore {
  readonly #redis: Redis;
  readonly #options: StoreOptions;

  constructor(redis: Redis, options: StoreOptions) {
    this.#redis = redis;
    this.#options = options;
  }

  /** Merges `messages` (read from the place) into the conversation `conversationId`, and marks it read. */
  async merge(
    key: ConversationKey,
    conversationId: string,
    messages: readonly StoredMessage[],
    now: number,
  ): Promise<BackfillResult> {
    const { prefix, maxMessages } = this.#options;
    const conversation = conversationKeys(prefix, key);
    const authors = [...new Set(messages.map((m) => m.authorId))];
    const result = await MERGE_BACKFILL.run(
      this.#redis,
      {
        state: conversation.state,
        log: conversation.log,
        forgotten: authors.map((a) => forgottenKey(prefix, key, a)),
        spoke: authors.map((a) => spokeKey(prefix, key, a)),
      },
      {
        conversationId,
        messages: messages.map((m) => JSON.stringify(m)),
        authors,
        cap: maxMessages,
        keptAfterTrim: keptAfterTrim(maxMessages),
        place: placeId(key),
        spokeTtl: spokeTtlSeconds(this.#options.ttlSeconds(key)),
        now,
      },
    );
    if (result.status === "merged") return { status: "merged", added: storedMessages(result.recent ?? []) };
    if (result.status === "gone" || result.status === "read") return { status: result.status };
    throw new Error(`unexpected backfill status ${result.status}`);
  }
}
