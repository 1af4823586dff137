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
import { parseScriptResult, storedMessages } from "./stored-state.ts";

/**
 * KEYS: state, log, then for each author (in ARGV 3's order) their forget mark and their index of places.
 * ARGV: 1 conversation id, 2 JSON array of the stored messages (each with `backfilled`), 3 JSON array of their
 * authors' ids, 4 cap, 5 how many messages a trim keeps, 6 the place's id, 7 the index's ttl s, 8 now ms.
 * Returns `gone` (the conversation expired or was reset: never resurrected), `read` (an earlier attempt merged
 * already) or `merged` with the messages that went in (`recent`). The log's length is recounted, and trimmed (the oldest
 * first) when over its cap; its arrival count stays: these messages never arrived as deliveries.
 */
const MERGE_BACKFILL = `#!lua flags=allow-key-locking
local state, log = KEYS[1], KEYS[2]
local current = redis.call('GET', state)
if not current then return cjson.encode({status = 'gone'}) end
local s = cjson.decode(current)
if s.id ~= ARGV[1] then return cjson.encode({status = 'gone'}) end
if s.backfilled then return cjson.encode({status = 'read'}) end
local authors = cjson.decode(ARGV[3])
local forgottenAt, index = {}, {}
if #authors > 0 then
  local marks = {}
  for i = 1, #authors do marks[i] = KEYS[1 + 2 * i] end
  local found = redis.call('MGET', unpack(marks))
  for i, author in ipairs(authors) do
    forgottenAt[author] = found[i] and tonumber(found[i]) or -1
    index[author] = KEYS[2 + 2 * i]
  end
end
local known = {}
for _, raw in ipairs(redis.call('ZRANGEBYSCORE', log, '-inf', '${MESSAGES_BELOW}')) do known[cjson.decode(raw).id] = true end
local adds, spoke, added = {}, {}, {}
for _, raw in ipairs(cjson.decode(ARGV[2])) do
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
  redis.call('ZADD', log, unpack(adds))
  local length = redis.call('ZCOUNT', log, '-inf', '${MESSAGES_BELOW}')
  if length > tonumber(ARGV[4]) then
    length = tonumber(ARGV[5])
    redis.call('ZREMRANGEBYRANK', log, 0, -length - ${COUNTING_MEMBERS + 1})
  end
  redis.call('ZADD', log, ${LENGTH_BASE} + length, '${LENGTH_MEMBER}')
  for author in pairs(spoke) do
    redis.call('ZADD', index[author], ARGV[8], ARGV[6])
    redis.call('EXPIRE', index[author], ARGV[7])
  end
end
s.backfilled = true
redis.call('SET', state, cjson.encode(s), 'KEEPTTL')
return cjson.encode({status = 'merged', recent = added})
`;

export type BackfillResult = { status: "gone" | "read" } | { status: "merged"; added: StoredMessage[] };

export class BackfillStore {
  readonly #options: StoreOptions;
  readonly #script;

  constructor(redis: Redis, options: StoreOptions) {
    this.#options = options;
    this.#script = redis.createScript<unknown>(MERGE_BACKFILL);
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
    const raw = await this.#script.exec(
      [
        conversation.state,
        conversation.log,
        ...authors.flatMap((a) => [forgottenKey(prefix, key, a), spokeKey(prefix, key, a)]),
      ],
      [
        conversationId,
        JSON.stringify(messages.map((m) => JSON.stringify(m))),
        JSON.stringify(authors),
        String(maxMessages),
        String(keptAfterTrim(maxMessages)),
        placeId(key),
        String(spokeTtlSeconds(this.#options.ttlSeconds(key))),
        String(now),
      ],
    );
    const result = parseScriptResult(raw);
    if (result.status === "merged") return { status: "merged", added: storedMessages(result.recent ?? []) };
    if (result.status === "gone" || result.status === "read") return { status: result.status };
    throw new Error(`unexpected backfill status ${result.status}`);
  }
}
