/**
 * @module
 * The Lua scripts of the conversation store. Each one is a single Redis round trip and atomic, which is what makes
 * concurrent deliveries safe: dedupe, record and TTL bump can never be split by another request.
 *
 * Upstash bills a script as 1 plus every command it runs, so the layout keeps commands few: the conversation's
 * state is one JSON string (`GETEX` reads it and bumps its TTL in one command; `SET … EX` writes it with its TTL),
 * and the log (a sorted set of messages scored by timestamp) keeps its own length as the score of one more member,
 * LENGTH_MEMBER, scored LENGTH_BASE + length so that it sorts after every message, and the count of messages ever
 * recorded in it the same way (ARRIVALS_MEMBER): the window the decider reads carries both, and the write that
 * adds a message updates both, so the log is trimmed only when it is over its cap, without a ZCARD per message.
 * The scripts of a job's answer (claim, record, release) are in ./claim-scripts.ts.
 *
 * Each is defined with its keys by name and its arguments as one table (lib/redis-script.ts, which also says why
 * every script declares `allow-key-locking`). Results are JSON strings (cjson) so that their shape survives the
 * REST protocol unchanged.
 */
import * as z from "../zod.ts";
import { defineScript, luaFlag } from "../redis-script.ts";
import { scriptResultSchema } from "./stored-state.ts";

/** The log member whose score is LENGTH_BASE + the number of messages in the log. */
export const LENGTH_MEMBER = "#";
/** Above any millisecond timestamp (year 33658), and far below 2^53, so LENGTH_BASE + n stays exact. */
export const LENGTH_BASE = 1e15;
/**
 * The log member whose score is ARRIVALS_BASE + how many messages have been recorded in the conversation so far:
 * each message's seen mark keeps its arrival number, and each answer the number it had seen (./claim-scripts.ts).
 * It sorts after the length member, so the window read at the log's end carries both.
 */
export const ARRIVALS_MEMBER = "%";
export const ARRIVALS_BASE = 2e15;
/** Everything scored below this is a message. */
export const MESSAGES_BELOW = `(${LENGTH_BASE}`;
/** The two counting members at the end of the log. */
export const COUNTING_MEMBERS = 2;

/**
 * Inbound message. Keys: the conversation's `state` and `log`, the message's `seen` mark, its `reply` and `claim`
 * (read only for a duplicate), the author's index of places (`spoke`); optionally the author's `optOut` mark (only
 * read: `optedOut`), the tenant's `installation` (without it the status is `not_installed` and nothing is read or
 * written), the channel's `kept` messages and the place's `settings` (read with the state in one MGET and returned
 * as `settings`). Arguments: the `message` as stored (JSON), its `ts` (ms), `startIfIdle`, `reset`, the
 * conversation's `ttl` (s), its `cap`, the `newState` of a conversation it starts, how many log entries the
 * `window` returns (the counting members included), the seen mark's `dedupeTtl` (s), how many messages a trim
 * keeps (`keptAfterTrim`), the `place`'s id, the index's `spokeTtl` (s), the longest a conversation lives
 * (`maxAgeMs`), how the author's id reads in a stored message (`authorIdJson`: `"authorId":"…"`), the message's
 * `thread` ('' none), how its line starts after its thread (`lineStart`: `{"id":"…",`) and, with `kept`, how many
 * messages the list holds and its ttl (s).
 * Dedupe and record happen together, so a message is either recorded and marked seen, or neither: a failed
 * request that the platform retries is never lost to the dedupe mark. A delivery of a message already seen is
 * `duplicate` once a job started on it (its claim or reply key exists), else `unpublished`: the earlier delivery
 * may have recorded it and then failed to publish its job (or lost the script's answer), so the caller decides and
 * publishes again (QStash's deduplication id makes a second publish harmless). Returns the state and the messages
 * before this one (the window the decider reads with it); the caller adds the message itself.
 * A conversation older than `maxAgeMs` ends at the next message, as if it had expired. A recorded message adds its
 * place to its author's index, unless the author already wrote in the window (their earlier message added it, and
 * the index outlives the conversation); a new place there also drops the places seen longer ago than the index
 * lives, whose conversations have surely ended.
 * With a kept list (a platform that cannot be asked for a place's history: lib/platforms/adapter.ts keepHistory),
 * every message is also kept there, whether or not a conversation is active, unless it already is: the list and
 * the state are read with one MGET (the state's TTL then bumped apart, when a conversation is active), and the list
 * written back whole, capped, with its TTL: a message nobody answers costs the script, the MGET and the SET.
 */
export const INGEST = defineScript({
  keys: {
    state: "key",
    log: "key",
    seen: "key",
    reply: "key",
    claim: "key",
    spoke: "key",
    optOut: "optional",
    installation: "optional",
    kept: "optional",
    settings: "optional",
  },
  args: z.object({
    message: z.string(),
    ts: z.number(),
    startIfIdle: z.boolean(),
    reset: z.boolean(),
    ttl: z.number(),
    cap: z.number(),
    newState: z.string(),
    window: z.number(),
    dedupeTtl: z.number(),
    keptAfterTrim: z.number(),
    place: z.string(),
    spokeTtl: z.number(),
    maxAgeMs: z.number(),
    authorIdJson: z.string(),
    thread: z.string(),
    lineStart: z.string(),
    kept: z.optional(z.object({ messages: z.number(), ttl: z.number() })),
  }),
  result: scriptResultSchema,
  lua: `
if K.installation and redis.call('EXISTS', K.installation) == 0 then return cjson.encode({status = 'not_installed'}) end
local current, keptLines, settings
if K.kept or K.settings then
  local reads = {K.state}
  if K.kept then reads[#reads + 1] = K.kept end
  if K.settings then reads[#reads + 1] = K.settings end
  local found = redis.call('MGET', unpack(reads))
  current = found[1]
  if K.kept then keptLines = found[2] end
  if K.settings then settings = found[#reads] end
  if current then redis.call('EXPIRE', K.state, A.ttl) end
else
  current = redis.call('GETEX', K.state, 'EX', A.ttl)
end
local function keep()
  if not K.kept then return end
  local old = keptLines or ''
  if string.find('\\n' .. old, '\\n' .. A.thread .. '|' .. A.lineStart, 1, true) then return end
  local lines = {}
  for line in string.gmatch(old, '[^\\n]+') do lines[#lines + 1] = line end
  lines[#lines + 1] = A.thread .. '|' .. A.message
  local from = math.max(1, #lines - A.kept.messages + 1)
  redis.call('SET', K.kept, table.concat(lines, '\\n', from), 'EX', A.kept.ttl)
end
if current and A.ts - cjson.decode(current).startedAt > A.maxAgeMs then
  redis.call('DEL', K.state, K.log)
  current = false
end
if (not current) and not A.startIfIdle then
  keep()
  return cjson.encode({status = 'idle', settings = settings})
end
local function window()
  local entries = redis.call('ZRANGE', K.log, -A.window, -1, 'WITHSCORES')
  local messages, length, arrivals = {}, 0, 0
  for i = 1, #entries, 2 do
    if entries[i] == '${LENGTH_MEMBER}' then length = tonumber(entries[i + 1]) - ${LENGTH_BASE}
    elseif entries[i] == '${ARRIVALS_MEMBER}' then arrivals = tonumber(entries[i + 1]) - ${ARRIVALS_BASE}
    else messages[#messages + 1] = entries[i] end
  end
  return messages, length, arrivals
end
local optedOut = K.optOut ~= nil and redis.call('EXISTS', K.optOut) == 1
local continuing = current and not A.reset
local recent, length, arrivals = {}, 0, 0
if continuing then recent, length, arrivals = window() end
if not redis.call('SET', K.seen, tostring(arrivals + 1), 'NX', 'EX', A.dedupeTtl) then
  -- GETEX kept the state alive: its messages live exactly as long, or an answer owed would find none.
  if current then redis.call('EXPIRE', K.log, A.ttl) end
  if not continuing then recent = window() end
  local job = redis.call('MGET', K.reply, K.claim)
  local status = (job[1] or job[2]) and 'duplicate' or 'unpublished'
  return cjson.encode({status = status, state = current or '', recent = recent, optedOut = optedOut,
    settings = settings})
end
keep()
local status = 'recorded'
if not continuing then
  if current then redis.call('DEL', K.log) end
  status, current = 'started', A.newState
  redis.call('SET', K.state, current, 'EX', A.ttl)
end
length, arrivals = length + 1, arrivals + 1
local trim = length > A.cap
if trim then length = A.keptAfterTrim end
redis.call('ZADD', K.log, A.ts, A.message, ${LENGTH_BASE} + length, '${LENGTH_MEMBER}',
  ${ARRIVALS_BASE} + arrivals, '${ARRIVALS_MEMBER}')
if trim then redis.call('ZREMRANGEBYRANK', K.log, 0, -length - ${COUNTING_MEMBERS + 1}) end
redis.call('EXPIRE', K.log, A.ttl)
local indexed = false
for _, raw in ipairs(recent) do
  if string.find(raw, A.authorIdJson, 1, true) then indexed = true break end
end
if not indexed then
  if redis.call('ZADD', K.spoke, A.ts, A.place) == 1 then
    redis.call('ZREMRANGEBYSCORE', K.spoke, '-inf', A.ts - 1000 * A.spokeTtl)
  end
  redis.call('EXPIRE', K.spoke, A.spokeTtl)
end
return cjson.encode({status = status, state = current, recent = recent, optedOut = optedOut, settings = settings})
`,
});

/**
 * The memory job folded the oldest messages into the summary. Keys: `state`, `log`. Arguments: the
 * `conversationId`, the summary the fold started from (`previous`, '' for none), the new `summary`, and the ts
 * (ms) it is folded `through`. Writes the summary and removes the folded messages in one step, so a message is
 * never both in the log and in the summary. Nothing happens (false) when the conversation was reset or expired
 * (never resurrected) or another fold won.
 */
export const FOLD_SUMMARY = defineScript({
  keys: { state: "key", log: "key" },
  args: z.object({ conversationId: z.string(), previous: z.string(), summary: z.string(), through: z.number() }),
  result: luaFlag,
  lua: `
local current = redis.call('GET', K.state)
if not current then return 0 end
local s = cjson.decode(current)
if s.id ~= A.conversationId or (s.summary or '') ~= A.previous then return 0 end
s.summary = A.summary
redis.call('SET', K.state, cjson.encode(s), 'KEEPTTL')
local removed = redis.call('ZREMRANGEBYSCORE', K.log, '-inf', A.through)
if removed > 0 then redis.call('ZADD', K.log, 'XX', 'INCR', -removed, '${LENGTH_MEMBER}') end
return 1
`,
});

/**
 * A job found what the conversation is about (lib/jobs/parent.ts). Keys: `state`, and when there is one, the
 * parent's author's index of places (`spoke`). Arguments: the `conversationId`, what it is the parent `of`, the
 * `parent` message JSON or `false`, the `place`'s id, the index's `spokeTtl` (s), and `now` (ms). Kept in the
 * state, so that it expires with the conversation and every later job reads it with the conversation, and the
 * place goes into its author's index, so that their "forget me" finds it there too; nothing happens when the
 * conversation is gone.
 */
export const REMEMBER_PARENT = defineScript({
  keys: { state: "key", spoke: "optional" },
  args: z.object({
    conversationId: z.string(),
    of: z.string(),
    parent: z.string(),
    place: z.string(),
    spokeTtl: z.number(),
    now: z.number(),
  }),
  result: luaFlag,
  lua: `
local current = redis.call('GET', K.state)
if not current then return 0 end
local s = cjson.decode(current)
if s.id ~= A.conversationId then return 0 end
if type(s.parents) ~= 'table' then s.parents = {} end
s.parents[A.of] = cjson.decode(A.parent)
redis.call('SET', K.state, cjson.encode(s), 'KEEPTTL')
if K.spoke then
  redis.call('ZADD', K.spoke, A.now, A.place)
  redis.call('EXPIRE', K.spoke, A.spokeTtl)
end
return 1
`,
});
