/**
 * @module
 * The Lua scripts of the conversation store. Each one is a single Redis round trip and atomic, which is what makes
 * concurrent deliveries safe: dedupe, record and TTL bump can never be split by another request.
 * Results are JSON strings (cjson) so that their shape survives the REST protocol unchanged.
 */

/**
 * Inbound message. KEYS: meta, log, seen, and optionally the author's opt-out key (only read: `optedOut`).
 * ARGV: 1 message JSON, 2 ts ms, 3 startIfIdle 0|1, 4 reset 0|1, 5 ttl s, 6 cap, 7 id for a new conversation,
 * 8 how many recent messages to return, 9 dedupe ttl s, 10 now ms.
 * Dedupe and record happen together, so a message is either recorded and marked seen, or neither: a failed
 * request that the platform retries is never lost to the dedupe mark.
 */
export const INGEST = `
local meta, log, seen = KEYS[1], KEYS[2], KEYS[3]
local active = redis.call('EXISTS', meta) == 1
if (not active) and ARGV[3] == '0' then
  return cjson.encode({status = 'idle'})
end
local status
if not redis.call('SET', seen, '1', 'NX', 'EX', ARGV[9]) then
  status = 'duplicate'
else
  if active and ARGV[4] == '1' then
    redis.call('DEL', meta, log)
    active = false
  end
  if active then
    status = 'recorded'
  else
    status = 'started'
    redis.call('HSET', meta, 'id', ARGV[7], 'startedAt', ARGV[2], 'answeredThrough', '0')
  end
  redis.call('ZADD', log, ARGV[2], ARGV[1])
  redis.call('ZREMRANGEBYRANK', log, 0, -tonumber(ARGV[6]) - 1)
  redis.call('HSET', meta, 'lastActivityAt', ARGV[10])
  redis.call('EXPIRE', meta, ARGV[5])
  redis.call('EXPIRE', log, ARGV[5])
end
return cjson.encode({status = status, meta = redis.call('HGETALL', meta),
  recent = redis.call('ZRANGE', log, -tonumber(ARGV[8]), -1),
  optedOut = KEYS[4] ~= nil and redis.call('EXISTS', KEYS[4]) == 1})
`;

/**
 * Job start. KEYS: meta, log, reply. ARGV: 1 conversation id, 2 trigger ts ms, 3 claim ttl s, 4 trigger id.
 * Claims the right to answer one trigger, unless it was answered already, another attempt holds the claim,
 * the conversation is gone (expired or reset), or a later answer already saw the trigger. A claim left as a draft
 * (an answer of several parts that failed after some went out) is taken over and returned, so the attempt finishes
 * that answer instead of writing a new one.
 */
export const CLAIM_REPLY = `
local meta, log, reply = KEYS[1], KEYS[2], KEYS[3]
local claim = redis.call('GET', reply)
if claim == 'done' then return cjson.encode({status = 'done'}) end
local draft = ''
if claim and string.sub(claim, 1, 6) == 'draft:' then draft = string.sub(claim, 7)
elseif claim then return cjson.encode({status = 'busy', retryAfter = redis.call('TTL', reply)}) end
if redis.call('HGET', meta, 'id') ~= ARGV[1] then return cjson.encode({status = 'gone'}) end
if draft ~= '' then
  redis.call('SET', reply, 'posting', 'EX', ARGV[3])
  return cjson.encode({status = 'claimed', draft = draft, meta = redis.call('HGETALL', meta),
    recent = redis.call('ZRANGE', log, 0, -1)})
end
local through = tonumber(redis.call('HGET', meta, 'answeredThrough') or '0')
local ts = tonumber(ARGV[2])
-- Timestamps have millisecond resolution: at a tie, only the very message the answer was for counts as seen.
if ts < through or (ts == through and redis.call('HGET', meta, 'answeredId') == ARGV[4]) then
  return cjson.encode({status = 'covered'})
end
redis.call('SET', reply, 'posting', 'EX', ARGV[3])
return cjson.encode({status = 'claimed', meta = redis.call('HGETALL', meta), recent = redis.call('ZRANGE', log, 0, -1)})
`;

/**
 * The bot answered. KEYS: meta, log, reply, seen (of the bot's own posted message, so that the platform echoing it
 * back is not recorded twice), answers. ARGV: 1 conversation id, 2 reply JSON, 3 reply ts ms, 4 answered-through
 * ts ms, 5 JSON array of the author ids answered, 6 ttl s, 7 cap, 8 done ttl s, 9 answer trace JSON ('' for none),
 * 10 how many traces to keep, 11 id of the message the answer was for. The trace list takes the conversation's TTL at each answer, and every later message
 * only pushes the conversation's expiry further out, so the traces never outlive it.
 */
export const RECORD_REPLY = `
local meta, log, reply, seen, answers = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
redis.call('SET', reply, 'done', 'EX', ARGV[8])
redis.call('SET', seen, '1', 'EX', ARGV[8])
if redis.call('HGET', meta, 'id') ~= ARGV[1] then return 0 end
redis.call('ZADD', log, ARGV[3], ARGV[2])
redis.call('ZREMRANGEBYRANK', log, 0, -tonumber(ARGV[7]) - 1)
if tonumber(ARGV[4]) >= tonumber(redis.call('HGET', meta, 'answeredThrough') or '0') then
  redis.call('HSET', meta, 'answeredThrough', ARGV[4], 'answeredId', ARGV[11])
end
redis.call('HSET', meta, 'lastBotReplyAt', ARGV[3], 'lastBotReplyTo', ARGV[5], 'lastActivityAt', ARGV[3])
redis.call('EXPIRE', meta, ARGV[6])
redis.call('EXPIRE', log, ARGV[6])
if ARGV[9] ~= '' then
  redis.call('LPUSH', answers, ARGV[9])
  redis.call('LTRIM', answers, 0, tonumber(ARGV[10]) - 1)
  redis.call('EXPIRE', answers, ARGV[6])
end
return 1
`;

/**
 * A failed attempt gives its claim back so that the retry can answer. KEYS: reply. ARGV: 1 draft JSON ('' when
 * nothing went out), 2 draft ttl s. With a draft, the retry finishes the same answer from the first part not posted.
 */
export const RELEASE_CLAIM = `
if redis.call('GET', KEYS[1]) ~= 'posting' then return 0 end
if ARGV[1] == '' then return redis.call('DEL', KEYS[1]) end
redis.call('SET', KEYS[1], 'draft:' .. ARGV[1], 'EX', ARGV[2])
return 1
`;

/**
 * The memory job folded the oldest messages into the summary. KEYS: meta, log. ARGV: 1 conversation id, 2 the
 * summary the fold started from ('' for none), 3 new summary, 4 folded-through ts ms.
 * Writes the summary and removes the folded messages in one step, so a message is never both in the log and in the
 * summary. Nothing happens when the conversation was reset or expired (never resurrected) or another fold won.
 */
export const FOLD_SUMMARY = `
local meta, log = KEYS[1], KEYS[2]
if redis.call('HGET', meta, 'id') ~= ARGV[1] then return 0 end
if (redis.call('HGET', meta, 'summary') or '') ~= ARGV[2] then return 0 end
redis.call('HSET', meta, 'summary', ARGV[3])
redis.call('ZREMRANGEBYSCORE', log, '-inf', ARGV[4])
return 1
`;
