/**
 * @module
 * The conversation side of "forget me": in every live conversation the person spoke in, the person's messages
 * written up to their request and the bot's answers to them leave the log; the running summary (it may retell them;
 * it is dropped, not rebuilt) and the stored prompts of the admin view go too. The conversations are those of the
 * person's index of places (`spoke:` in lib/keys.ts, written by the ingest script), never a scan of the database:
 * the cost is the person's own conversations, whatever else the database holds. Each conversation is one small
 * script that gets all its keys in KEYS; the places whose conversation has ended leave the index.
 */
import type { Redis } from "@upstash/redis/cloudflare";
import { LENGTH_MEMBER, MESSAGES_BELOW } from "../conversation/scripts.ts";
import { defineScript } from "../redis-script.ts";
import * as z from "../zod.ts";
import { conversationKeysAt, placeId, spokeKey, type ConversationKeys, type Tenancy } from "../keys.ts";
import type { ConversationKey } from "../message.ts";

/**
 * Keys: the conversation's `state`, `log` and `answers`, and optionally the person's index of places (`spoke`).
 * Arguments: the `person`'s id, `through` (ms), the id of a message of theirs to `keep` ('' none), the `place`'s
 * id (with the index).
 * The bot's answers that go are those to the person
 * and every one written after the person's first message there: the bot had read them, and may retell them.
 * Keeps the log's length member (lib/conversation/scripts.ts) true. An answer to them still being streamed leaves
 * the state (`speaking`, lib/conversation/speaking.ts) as a recorded one leaves the log. The person's id also
 * leaves the record of whom the bot answered last, and of which of their messages answers covered
 * (lib/conversation/claim-scripts.ts). A thread's parent of theirs kept with the conversation goes too, and is not
 * fetched again (`false`). With the index,
 * the place leaves it when no conversation is there or nothing of theirs is left in it: in the same step, so that
 * a message of theirs recorded meanwhile (which finds them out of the window and adds the place) is never undone.
 * Returns {how many messages left the log, how many of theirs are still in it}, or {-1, 0} when no conversation
 * is there.
 */
const ERASE_PERSON = defineScript({
  keys: { state: "key", log: "key", answers: "key", spoke: "optional" },
  args: z.object({ person: z.string(), through: z.number(), keep: z.string(), place: z.string() }),
  result: z.tuple([z.number(), z.number()]),
  lua: `
local current = redis.call('GET', K.state)
if not current then
  if K.spoke then redis.call('ZREM', K.spoke, A.place) end
  return {-1, 0}
end
local person, through = A.person, A.through
local messages = {}
local since = nil
for _, raw in ipairs(redis.call('ZRANGE', K.log, '-inf', '${MESSAGES_BELOW}', 'BYSCORE')) do
  local m = cjson.decode(raw)
  m.theirs = m.role == 'user' and m.authorId == person and m.ts <= through and m.id ~= A.keep
  if m.theirs and (since == nil or m.ts < since) then since = m.ts end
  messages[#messages + 1] = {raw = raw, m = m}
end
local removed, left = 0, 0
for _, entry in ipairs(messages) do
  local m = entry.m
  local read = m.role == 'assistant' and (m.replyToAuthorId == person or (since ~= nil and m.ts >= since))
  if m.theirs or read then
    redis.call('ZREM', K.log, entry.raw)
    removed = removed + 1
  elseif m.role == 'user' and m.authorId == person then
    left = left + 1
  end
end
if removed > 0 then redis.call('ZADD', K.log, 'XX', 'INCR', -removed, '${LENGTH_MEMBER}') end
local s = cjson.decode(current)
s.summary = nil
if type(s.lastBotReplyTo) == 'table' then
  local others = {}
  for _, id in ipairs(s.lastBotReplyTo) do
    if id ~= person then others[#others + 1] = id end
  end
  s.lastBotReplyTo = others
end
if type(s.coverage) == 'table' then s.coverage[person] = nil end
local speaking = s.speaking
if type(speaking) == 'table'
  and (speaking.replyToAuthorId == person or (since ~= nil and tonumber(speaking.ts) >= since)) then
  s.speaking = nil
end
if type(s.parents) == 'table' then
  for of, parent in pairs(s.parents) do
    if type(parent) == 'table' and parent.authorId == person and parent.ts <= through then s.parents[of] = false end
  end
end
redis.call('SET', K.state, cjson.encode(s), 'KEEPTTL')
redis.call('DEL', K.answers)
if K.spoke and left == 0 then redis.call('ZREM', K.spoke, A.place) end
return {removed, left}
`,
});

/** Whose messages go: theirs written up to `through` (ms), except `keep` (a message id). */
export interface Erasure {
  personId: string;
  through: number;
  keep?: string;
}

export interface Erased {
  conversations: number;
  messages: number;
}

export class MessageEraser {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(redis: Redis, prefix: string) {
    this.redis = redis;
    this.prefix = prefix;
  }

  /**
   * Every live conversation the person spoke in (their index of places). A place leaves the index once nothing of
   * theirs is left there (or no conversation is): what stays names only where they have spoken since.
   */
  async eraseEverywhere(where: Tenancy, erasure: Erasure): Promise<Erased> {
    const places = await this.redis.zrange<string[]>(spokeKey(this.prefix, where, erasure.personId), 0, -1);
    const live = (await Promise.all(places.map((place) => this.#erase(where, place, erasure)))).filter(
      (removed) => removed >= 0,
    );
    return { conversations: live.length, messages: live.reduce((sum, removed) => sum + removed, 0) };
  }

  /** One conversation, by its place; the place leaves the person's index when nothing of theirs is left there. */
  async eraseAt(key: ConversationKey, erasure: Erasure): Promise<void> {
    await this.#erase(key, placeId(key), erasure);
  }

  /** The conversation at `key` now, its place in the person's index left as it is (see `erase`). */
  async eraseConversation(key: ConversationKey, erasure: Erasure): Promise<number> {
    return this.erase(conversationKeysAt(this.prefix, placeId(key)), erasure);
  }

  /** One conversation, its place in the person's index left as it is; returns how many messages left its log. */
  async erase(keys: ConversationKeys, erasure: Erasure): Promise<number> {
    const [removed] = await ERASE_PERSON.run(
      this.redis,
      { state: keys.state, log: keys.log, answers: keys.answers },
      { person: erasure.personId, through: erasure.through, keep: erasure.keep ?? "", place: "" },
    );
    return Math.max(0, removed);
  }

  async #erase(where: Tenancy, place: string, erasure: Erasure): Promise<number> {
    const keys = conversationKeysAt(this.prefix, place);
    const index = spokeKey(this.prefix, where, erasure.personId);
    const [removed] = await ERASE_PERSON.run(
      this.redis,
      { state: keys.state, log: keys.log, answers: keys.answers, spoke: index },
      { person: erasure.personId, through: erasure.through, keep: erasure.keep ?? "", place },
    );
    return removed;
  }
}
