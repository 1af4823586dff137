/**
 * @module
 * The Lua scripts of the conversation store. Each one is a single Redis round trip and atomic, which is what makes
 * concurrent deliveries safe: dedupe, record and TTL bump can never be split by another request.
 *
 * Upstash bills a script as 1 plus every command it runs, so the layout keeps commands few: the conversation's
 * state is one JSON string (`GETEX` reads it and bumps its TTL in one command; `SET … EX` writes it with its TTL),
 * and the log (a sorted set of messages scored by timestamp) keeps its own length as the score of one more member,
 * LENGTH_MEMBER, scored LENGTH_BASE + length so that it sorts after every message: the window the decider reads
 * carries the length, and the write that adds a message updates it, so the log is trimmed only when it is over its
 * cap, without a ZCARD per message.
 *
 * Every script declares `allow-key-locking` and touches only the keys it is given: on Upstash it then locks those
 * keys instead of the whole database (the local bridge enforces the rule, see dev/upstash-redis/key-locking.ts).
 * Results are JSON strings (cjson) so that their shape survives the REST protocol unchanged.
 */

/** The log member whose score is LENGTH_BASE + the number of messages in the log. */
export const LENGTH_MEMBER = "#";
/** Above any millisecond timestamp (year 33658), and far below 2^53, so LENGTH_BASE + n stays exact. */
export const LENGTH_BASE = 1e15;
/** Everything scored below this is a message. */
export const MESSAGES_BELOW = `(${LENGTH_BASE}`;

/**
 * Inbound message. KEYS: state, log, seen, and optionally the author's opt-out key (only read: `optedOut`).
 * ARGV: 1 message JSON, 2 ts ms, 3 startIfIdle 0|1, 4 reset 0|1, 5 ttl s, 6 cap, 7 state JSON of a new
 * conversation, 8 how many log entries to return (the window, the length member included), 9 dedupe ttl s,
 * 10 how many messages a trim keeps.
 * Dedupe and record happen together, so a message is either recorded and marked seen, or neither: a failed
 * request that the platform retries is never lost to the dedupe mark. Returns the state and the messages before
 * this one (the window the decider reads with it); the caller adds the message itself.
 */
export const INGEST = `#!lua flags=allow-key-locking
local state, log, seen, optOut = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local current = redis.call('GETEX', state, 'EX', ARGV[5])
if (not current) and ARGV[3] == '0' then
  return cjson.encode({status = 'idle'})
end
local function window()
  local entries = redis.call('ZRANGE', log, -tonumber(ARGV[8]), -1, 'WITHSCORES')
  local messages, length = {}, 0
  for i = 1, #entries, 2 do
    if entries[i] == '${LENGTH_MEMBER}' then length = tonumber(entries[i + 1]) - ${LENGTH_BASE}
    else messages[#messages + 1] = entries[i] end
  end
  return messages, length
end
local optedOut = optOut ~= nil and redis.call('EXISTS', optOut) == 1
if not redis.call('SET', seen, '1', 'NX', 'EX', ARGV[9]) then
  local recent = window()
  return cjson.encode({status = 'duplicate', state = current or '', recent = recent, optedOut = optedOut})
end
local status, recent, length
if current and ARGV[4] == '0' then
  status = 'recorded'
  recent, length = window()
else
  if current then redis.call('DEL', log) end
  status, recent, length, current = 'started', {}, 0, ARGV[7]
  redis.call('SET', state, current, 'EX', ARGV[5])
end
length = length + 1
local trim = length > tonumber(ARGV[6])
if trim then length = tonumber(ARGV[10]) end
redis.call('ZADD', log, ARGV[2], ARGV[1], ${LENGTH_BASE} + length, '${LENGTH_MEMBER}')
if trim then redis.call('ZREMRANGEBYRANK', log, 0, -length - 2) end
redis.call('EXPIRE', log, ARGV[5])
return cjson.encode({status = status, state = current, recent = recent, optedOut = optedOut})
`;

/**
 * Job start. KEYS: state, log, reply. ARGV: 1 conversation id, 2 trigger ts ms, 3 claim ttl s, 4 trigger id.
 * Claims the right to answer one trigger, unless it was answered already, another attempt holds the claim,
 * the conversation is gone (expired or reset), or a later answer already saw the trigger. A claim left as a draft
 * (an answer of several parts that failed after some went out) is taken over and returned, so the attempt finishes
 * that answer instead of writing a new one.
 */
export const CLAIM_REPLY = `#!lua flags=allow-key-locking
local state, log, reply = KEYS[1], KEYS[2], KEYS[3]
local found = redis.call('MGET', reply, state)
local claim, current = found[1], found[2]
if claim == 'done' then return cjson.encode({status = 'done'}) end
local draft = ''
if claim and string.sub(claim, 1, 6) == 'draft:' then draft = string.sub(claim, 7)
elseif claim then return cjson.encode({status = 'busy', retryAfter = redis.call('TTL', reply)}) end
if not current then return cjson.encode({status = 'gone'}) end
local s = cjson.decode(current)
if s.id ~= ARGV[1] then return cjson.encode({status = 'gone'}) end
if draft == '' then
  local through, ts = tonumber(s.answeredThrough) or 0, tonumber(ARGV[2])
  -- Timestamps have millisecond resolution: at a tie, only the very message the answer was for counts as seen.
  if ts < through or (ts == through and s.answeredId == ARGV[4]) then return cjson.encode({status = 'covered'}) end
end
redis.call('SET', reply, 'posting', 'EX', ARGV[3])
return cjson.encode({status = 'claimed', draft = draft, state = current,
  recent = redis.call('ZRANGE', log, '-inf', '${MESSAGES_BELOW}', 'BYSCORE')})
`;

/**
 * The bot answered. KEYS: state, log, reply, answers. ARGV: 1 conversation id, 2 reply JSON, 3 reply ts ms,
 * 4 answered-through ts ms, 5 JSON array of the author ids answered, 6 ttl s, 7 cap, 8 how many messages a trim
 * keeps, 9 done ttl s, 10 answer trace JSON ('' for none), 11 how many traces to keep, 12 id of the message the
 * answer was for. The platforms' echo of the bot's own post never reaches the store: every parser drops the bot's
 * own messages. The log's length is counted here (ZCOUNT) rather than read from its member, so any drift ends at
 * the next answer. The trace list takes the conversation's TTL at each answer, and every later message only pushes
 * the conversation's expiry further out, so the traces never outlive it.
 */
export const RECORD_REPLY = `#!lua flags=allow-key-locking
local state, log, reply, answers = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
redis.call('SET', reply, 'done', 'EX', ARGV[9])
local current = redis.call('GET', state)
if not current then return 0 end
local s = cjson.decode(current)
if s.id ~= ARGV[1] then return 0 end
local length = redis.call('ZCOUNT', log, '-inf', '${MESSAGES_BELOW}') + 1
local trim = length > tonumber(ARGV[7])
if trim then length = tonumber(ARGV[8]) end
redis.call('ZADD', log, ARGV[3], ARGV[2], ${LENGTH_BASE} + length, '${LENGTH_MEMBER}')
if trim then redis.call('ZREMRANGEBYRANK', log, 0, -length - 2) end
if tonumber(ARGV[4]) >= (tonumber(s.answeredThrough) or 0) then
  s.answeredThrough, s.answeredId = tonumber(ARGV[4]), ARGV[12]
end
s.lastBotReplyAt, s.lastBotReplyTo = tonumber(ARGV[3]), cjson.decode(ARGV[5])
redis.call('SET', state, cjson.encode(s), 'EX', ARGV[6])
redis.call('EXPIRE', log, ARGV[6])
if ARGV[10] ~= '' then
  if redis.call('LPUSH', answers, ARGV[10]) > tonumber(ARGV[11]) then
    redis.call('LTRIM', answers, 0, tonumber(ARGV[11]) - 1)
  end
  redis.call('EXPIRE', answers, ARGV[6])
end
return 1
`;

/**
 * A failed attempt gives its claim back so that the retry can answer. KEYS: reply. ARGV: 1 draft JSON ('' when
 * nothing went out), 2 draft ttl s. With a draft, the retry finishes the same answer from the first part not posted.
 */
export const RELEASE_CLAIM = `#!lua flags=allow-key-locking
if redis.call('GET', KEYS[1]) ~= 'posting' then return 0 end
if ARGV[1] == '' then return redis.call('DEL', KEYS[1]) end
redis.call('SET', KEYS[1], 'draft:' .. ARGV[1], 'EX', ARGV[2])
return 1
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
