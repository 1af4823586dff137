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
 * Every script declares `allow-key-locking` and touches only the keys it is given: on Upstash it then locks those
 * keys instead of the whole database (the local bridge enforces the rule, see dev/upstash-redis/key-locking.ts).
 * Results are JSON strings (cjson) so that their shape survives the REST protocol unchanged.
 */

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
 * Inbound message. KEYS: state, log, seen, the message's reply and claim keys (read only for a duplicate), the
 * author's index of places (`spoke:`), and optionally the author's opt-out key (only read: `optedOut`), then, when
 * ARGV 11 is 1, the tenant's installation key: without it the status is `not_installed` and nothing is read or
 * written; and last, when ARGV 16 is above 0, the channel's kept messages (`kept:`).
 * ARGV: 1 message JSON, 2 ts ms, 3 startIfIdle 0|1, 4 reset 0|1, 5 ttl s, 6 cap, 7 state JSON of a new
 * conversation, 8 how many log entries to return (the window, the counting members included), 9 dedupe ttl s,
 * 10 how many messages a trim keeps, 11 installation key given 0|1, 12 the place's id, 13 the index's ttl s,
 * 14 the longest a conversation lives (ms), 15 how the author's id reads in a stored message (`"authorId":"…"`),
 * 16 how many messages the kept list holds (0: none is kept), 17 its ttl s, 18 the message's thread ('' none),
 * 19 how the message's line starts after its thread (`{"id":"…",`), 20 the place's settings key given 0|1 (then
 * the last KEYS entry, after the kept list's: read with the state in one MGET and returned as `settings`).
 * Dedupe and record happen together, so a message is either recorded and marked seen, or neither: a failed
 * request that the platform retries is never lost to the dedupe mark. A delivery of a message already seen is
 * `duplicate` once a job started on it (its claim or reply key exists), else `unpublished`: the earlier delivery
 * may have recorded it and then failed to publish its job (or lost the script's answer), so the caller decides and
 * publishes again (QStash's deduplication id makes a second publish harmless). Returns the state and the messages
 * before this one (the window the decider reads with it); the caller adds the message itself.
 * A conversation older than ARGV 14 ends at the next message, as if it had expired. A recorded message adds its
 * place to its author's index, unless the author already wrote in the window (their earlier message added it, and
 * the index outlives the conversation); a new place there also drops the places seen longer ago than the index
 * lives, whose conversations have surely ended.
 * With a kept list (a platform that cannot be asked for a place's history: lib/platforms/adapter.ts keepHistory),
 * every message is also kept there, whether or not a conversation is active, unless it already is: the list and
 * the state are read with one MGET (the state's TTL then bumped apart, when a conversation is active), and the list
 * written back whole, capped, with its TTL: a message nobody answers costs the script, the MGET and the SET.
 */
export const INGEST = `#!lua flags=allow-key-locking
local state, log, seen, reply, claim, spoke = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local installed = ARGV[11] == '1'
local cap = tonumber(ARGV[16])
local settingsKey = ARGV[20] == '1' and KEYS[#KEYS] or nil
local last = #KEYS - (settingsKey and 1 or 0)
local kept = cap > 0 and KEYS[last] or nil
local tail = kept and 1 or 0
if installed and redis.call('EXISTS', KEYS[last - tail]) == 0 then return cjson.encode({status = 'not_installed'}) end
local optOut = last - tail - (installed and 1 or 0) >= 7 and KEYS[7] or nil
local current, keptLines, settings
if kept or settingsKey then
  local reads = {state, kept}
  if settingsKey then reads[#reads + 1] = settingsKey end
  local found = redis.call('MGET', unpack(reads))
  current, keptLines, settings = found[1], kept and found[2], settingsKey and found[#reads]
  if current then redis.call('EXPIRE', state, ARGV[5]) end
else
  current = redis.call('GETEX', state, 'EX', ARGV[5])
end
local function keep()
  if not kept then return end
  local old = keptLines or ''
  if string.find('\\n' .. old, '\\n' .. ARGV[18] .. '|' .. ARGV[19], 1, true) then return end
  local lines = {}
  for line in string.gmatch(old, '[^\\n]+') do lines[#lines + 1] = line end
  lines[#lines + 1] = ARGV[18] .. '|' .. ARGV[1]
  local from = math.max(1, #lines - cap + 1)
  redis.call('SET', kept, table.concat(lines, '\\n', from), 'EX', ARGV[17])
end
if current and tonumber(ARGV[2]) - cjson.decode(current).startedAt > tonumber(ARGV[14]) then
  redis.call('DEL', state, log)
  current = false
end
if (not current) and ARGV[3] == '0' then
  keep()
  return cjson.encode({status = 'idle', settings = settings})
end
local function window()
  local entries = redis.call('ZRANGE', log, -tonumber(ARGV[8]), -1, 'WITHSCORES')
  local messages, length, arrivals = {}, 0, 0
  for i = 1, #entries, 2 do
    if entries[i] == '${LENGTH_MEMBER}' then length = tonumber(entries[i + 1]) - ${LENGTH_BASE}
    elseif entries[i] == '${ARRIVALS_MEMBER}' then arrivals = tonumber(entries[i + 1]) - ${ARRIVALS_BASE}
    else messages[#messages + 1] = entries[i] end
  end
  return messages, length, arrivals
end
local optedOut = optOut ~= nil and redis.call('EXISTS', optOut) == 1
local continuing = current and ARGV[4] == '0'
local recent, length, arrivals = {}, 0, 0
if continuing then recent, length, arrivals = window() end
if not redis.call('SET', seen, tostring(arrivals + 1), 'NX', 'EX', ARGV[9]) then
  -- GETEX kept the state alive: its messages live exactly as long, or an answer owed would find none.
  if current then redis.call('EXPIRE', log, ARGV[5]) end
  if not continuing then recent = window() end
  local job = redis.call('MGET', reply, claim)
  local status = (job[1] or job[2]) and 'duplicate' or 'unpublished'
  return cjson.encode({status = status, state = current or '', recent = recent, optedOut = optedOut, settings = settings})
end
keep()
local status = 'recorded'
if not continuing then
  if current then redis.call('DEL', log) end
  status, current = 'started', ARGV[7]
  redis.call('SET', state, current, 'EX', ARGV[5])
end
length, arrivals = length + 1, arrivals + 1
local trim = length > tonumber(ARGV[6])
if trim then length = tonumber(ARGV[10]) end
redis.call('ZADD', log, ARGV[2], ARGV[1], ${LENGTH_BASE} + length, '${LENGTH_MEMBER}', ${ARRIVALS_BASE} + arrivals, '${ARRIVALS_MEMBER}')
if trim then redis.call('ZREMRANGEBYRANK', log, 0, -length - ${COUNTING_MEMBERS + 1}) end
redis.call('EXPIRE', log, ARGV[5])
local indexed = false
for _, raw in ipairs(recent) do
  if string.find(raw, ARGV[15], 1, true) then indexed = true break end
end
if not indexed then
  if redis.call('ZADD', spoke, ARGV[2], ARGV[12]) == 1 then
    redis.call('ZREMRANGEBYSCORE', spoke, '-inf', tonumber(ARGV[2]) - 1000 * tonumber(ARGV[13]))
  end
  redis.call('EXPIRE', spoke, ARGV[13])
end
return cjson.encode({status = status, state = current, recent = recent, optedOut = optedOut, settings = settings})
`;

/**
 * The memory job folded the oldest messages into the summary. KEYS: state, log. ARGV: 1 conversation id, 2 the
 * summary the fold started from ('' for none), 3 new summary, 4 folded-through ts ms.
 * Writes the summary and removes the folded messages in one step, so a message is never both in the log and in the
 * summary. Nothing happens when the conversation was reset or expired (never resurrected) or another fold won.
 */
export const FOLD_SUMMARY = `#!lua flags=allow-key-locking
local state, log = KEYS[1], KEYS[2]
local current = redis.call('GET', state)
if not current then return 0 end
local s = cjson.decode(current)
if s.id ~= ARGV[1] or (s.summary or '') ~= ARGV[2] then return 0 end
s.summary = ARGV[3]
redis.call('SET', state, cjson.encode(s), 'KEEPTTL')
local removed = redis.call('ZREMRANGEBYSCORE', log, '-inf', ARGV[4])
if removed > 0 then redis.call('ZADD', log, 'XX', 'INCR', -removed, '${LENGTH_MEMBER}') end
return 1
`;

/**
 * A job found what the conversation is about (lib/jobs/parent.ts). KEYS: state, and when there is one, the
 * parent's author's index of places. ARGV: 1 conversation id, 2 what it is the parent of, 3 the parent message JSON
 * or `false`, 4 the place's id, 5 the index's ttl s, 6 now ms. Kept in the state, so that it expires with the
 * conversation and every later job reads it with the conversation, and the place goes into its author's index,
 * so that their "forget me" finds it there too; nothing happens when the conversation is gone.
 */
export const REMEMBER_PARENT = `#!lua flags=allow-key-locking
local state = KEYS[1]
local current = redis.call('GET', state)
if not current then return 0 end
local s = cjson.decode(current)
if s.id ~= ARGV[1] then return 0 end
if type(s.parents) ~= 'table' then s.parents = {} end
s.parents[ARGV[2]] = cjson.decode(ARGV[3])
redis.call('SET', state, cjson.encode(s), 'KEEPTTL')
if KEYS[2] then
  redis.call('ZADD', KEYS[2], ARGV[6], ARGV[4])
  redis.call('EXPIRE', KEYS[2], ARGV[5])
end
return 1
`;
