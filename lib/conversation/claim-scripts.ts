/**
 * @module
 * The Lua scripts of a job's answer to one trigger (see ./scripts.ts for the layout and the billing). Two keys per
 * trigger: the claim (`claim:…`), held by the attempt at work with a random token and a short TTL, and the reply
 * record (`reply:…`), which outlives attempts: `done`, or the draft of the answer being posted (lib/jobs/attempt.ts).
 *
 * Which triggers an answer covers: the conversation's state keeps, per person answered, `coverage[author] =
 * {through ts, arrivals seen, id}` of the answer with the newest message of theirs; `arrivals seen` is the log's
 * arrival count when that answer read the conversation. A trigger is covered only when it is that person's, not
 * newer than `through`, and had arrived by then (its seen mark keeps its arrival number): a late delivery of an
 * older message, or another person's mention that an answer only read as history, gets an answer of its own.
 */
import {
  ARRIVALS_BASE,
  ARRIVALS_MEMBER,
  COUNTING_MEMBERS,
  LENGTH_BASE,
  LENGTH_MEMBER,
  MESSAGES_BELOW,
} from "./scripts.ts";

/**
 * Job start. KEYS: state, log, reply, claim, the trigger's seen mark, its sign mark, the place's cached visibility,
 * the trigger author's opt-out mark. ARGV: 1 conversation id, 2 trigger ts ms,
 * 3 claim ttl s, 4 trigger id, 5 trigger author id, 6 the attempt's token.
 * Nothing to do when the trigger was answered (`done`), another attempt holds the claim (`busy`) or an answer to
 * its author already saw it (`covered`). Otherwise the claim is taken and the reply record returned as `draft`
 * ('' when none: `first`), with the conversation and its arrival count; when the conversation expired or was
 * reset (`gone`) the claim is taken too, so that finishing a draft or apologising happens once. `signUp`: the
 * webhook put the working sign up; `visibility` and `optedOut`: who can read the place, as cached, and whether the
 * person asked not to be messaged (all read in the same MGET, so no command more).
 */
/** How many keys CLAIM_REPLY takes (a fault rule that matches its calls names them: test/support/fault-control.ts). */
export const CLAIM_REPLY_KEYS = 8;
export const CLAIM_REPLY = `#!lua flags=allow-key-locking
local state, log, reply, claim, seen = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local found = redis.call('MGET', reply, claim, state, seen, KEYS[6], KEYS[7], KEYS[8])
local record, holder, current, arrival, signUp = found[1], found[2], found[3], found[4], found[5] ~= false
local visibility, optedOut = found[6] or nil, found[7] ~= false
if record == 'done' then return cjson.encode({status = 'done'}) end
if holder then return cjson.encode({status = 'busy', retryAfter = redis.call('TTL', claim)}) end
local draft = record or ''
local writing = draft ~= '' and cjson.decode(draft).text ~= nil
local s = current and cjson.decode(current)
local gone = nil
if not s then gone = 'expired' elseif s.id ~= ARGV[1] then gone = 'reset' end
if not writing and not gone then
  local c = s.coverage and s.coverage[ARGV[5]]
  if c then
    local ts, through = tonumber(ARGV[2]), tonumber(c[1])
    -- Timestamps have millisecond resolution: at a tie, only the very message the answer was for counts as seen.
    if (ts < through or (ts == through and c[3] == ARGV[4])) and (tonumber(arrival) or 0) <= tonumber(c[2]) then
      return cjson.encode({status = 'covered'})
    end
  end
end
redis.call('SET', claim, ARGV[6], 'EX', ARGV[3])
if gone then return cjson.encode({status = 'claimed', gone = gone, draft = draft, first = not record, signUp = signUp, optedOut = optedOut}) end
local entries = redis.call('ZRANGE', log, 0, -1, 'WITHSCORES')
local recent, arrivals = {}, 0
for i = 1, #entries, 2 do
  if entries[i] == '${ARRIVALS_MEMBER}' then arrivals = tonumber(entries[i + 1]) - ${ARRIVALS_BASE}
  elseif entries[i] ~= '${LENGTH_MEMBER}' then recent[#recent + 1] = entries[i] end
end
return cjson.encode({status = 'claimed', draft = draft, first = not record, state = current, recent = recent, arrivals = arrivals, signUp = signUp, visibility = visibility, optedOut = optedOut})
`;

/**
 * The bot answered. KEYS: state, log, reply, answers. ARGV: 1 conversation id, 2 reply JSON, 3 reply ts ms,
 * 4 ts ms of the message the answer was for, 5 JSON array of the author ids answered, 6 ttl s, 7 cap, 8 how many
 * messages a trim keeps, 9 done ttl s, 10 answer trace JSON ('' for none), 11 how many traces to keep, 12 id of
 * the message the answer was for, 13 the log's arrival count when the answer read the conversation.
 * The platforms' echo of the bot's own post never reaches the store: every parser drops the bot's own messages.
 * The log's length is counted here (ZCOUNT) rather than read from its member, so any drift ends at the next
 * answer. The trace list takes the conversation's TTL at each answer, and every later message only pushes the
 * conversation's expiry further out, so the traces never outlive it. A conversation that is gone is never
 * resurrected: the trigger is only marked done (returns 0). The turn recorded replaces the one a stream was still
 * writing (`speaking`, ./speaking.ts), which leaves the state in the same step.
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
if trim then redis.call('ZREMRANGEBYRANK', log, 0, -length - ${COUNTING_MEMBERS + 1}) end
local through = tonumber(ARGV[4])
if through >= (tonumber(s.answeredThrough) or 0) then s.answeredThrough = through end
local coverage = s.coverage or {}
for _, author in ipairs(cjson.decode(ARGV[5])) do
  local c = coverage[author]
  if not c or through >= tonumber(c[1]) then coverage[author] = {through, tonumber(ARGV[13]), ARGV[12]} end
end
s.coverage = coverage
s.lastBotReplyAt, s.lastBotReplyTo = tonumber(ARGV[3]), cjson.decode(ARGV[5])
s.speaking = nil
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
 * A failed attempt gives its claim back and keeps what it got out. KEYS: reply, claim. ARGV: 1 the attempt's
 * token, 2 draft JSON, 3 draft ttl s. When another attempt holds the claim by now, its draft is the newer one.
 */
export const RELEASE_CLAIM = `#!lua flags=allow-key-locking
local found = redis.call('MGET', KEYS[1], KEYS[2])
if found[2] and found[2] ~= ARGV[1] then return 0 end
if found[2] then redis.call('DEL', KEYS[2]) end
if found[1] == 'done' then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
return 1
`;

/**
 * A long attempt keeps its claim. KEYS: claim. ARGV: 1 the attempt's token, 2 claim ttl s. Returns 0 when another
 * attempt took the claim meanwhile (this one must stop posting).
 */
export const RENEW_CLAIM = `#!lua flags=allow-key-locking
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return 1
`;
