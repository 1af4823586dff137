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
import { defineScript, luaFlag } from "../redis-script.ts";
import * as z from "../zod.ts";
import {
  ARRIVALS_BASE,
  ARRIVALS_MEMBER,
  COUNTING_MEMBERS,
  LENGTH_BASE,
  LENGTH_MEMBER,
  MESSAGES_BELOW,
} from "./scripts.ts";
import { scriptResultSchema } from "./stored-state.ts";

/**
 * Job start. Keys: the conversation's `state` and `log`, the trigger's `reply` record and `claim`, its `seen` mark
 * and `sign` mark, the place's cached `visibility`, the trigger author's `optOut` mark. Arguments: the
 * `conversationId`, the trigger's `ts` (ms), `id` and `authorId`, the claim's `ttl` (s) and the attempt's `token`.
 * Nothing to do when the trigger was answered (`done`), another attempt holds the claim (`busy`) or an answer to
 * its author already saw it (`covered`). Otherwise the claim is taken and the reply record returned as `draft`
 * ('' when none: `first`), with the conversation and its arrival count; when the conversation expired or was
 * reset (`gone`) the claim is taken too, so that finishing a draft or apologising happens once. `signUp`: the
 * webhook put the working sign up; `visibility` and `optedOut`: who can read the place, as cached, and whether the
 * person asked not to be messaged (all read in the same MGET, so no command more).
 */
export const CLAIM_REPLY = defineScript({
  keys: {
    state: "key",
    log: "key",
    reply: "key",
    claim: "key",
    seen: "key",
    sign: "key",
    visibility: "key",
    optOut: "key",
  },
  args: z.object({
    conversationId: z.string(),
    ts: z.number(),
    ttl: z.number(),
    id: z.string(),
    authorId: z.string(),
    token: z.string(),
  }),
  result: scriptResultSchema,
  lua: `
local found = redis.call('MGET', K.reply, K.claim, K.state, K.seen, K.sign, K.visibility, K.optOut)
local record, holder, current, arrival, signUp = found[1], found[2], found[3], found[4], found[5] ~= false
local visibility, optedOut = found[6] or nil, found[7] ~= false
if record == 'done' then return cjson.encode({status = 'done'}) end
if holder then return cjson.encode({status = 'busy', retryAfter = redis.call('TTL', K.claim)}) end
local draft = record or ''
local writing = draft ~= '' and cjson.decode(draft).text ~= nil
local s = current and cjson.decode(current)
local gone = nil
if not s then gone = 'expired' elseif s.id ~= A.conversationId then gone = 'reset' end
if not writing and not gone then
  local c = s.coverage and s.coverage[A.authorId]
  if c then
    local ts, through = A.ts, tonumber(c[1])
    -- Timestamps have millisecond resolution: at a tie, only the very message the answer was for counts as seen.
    if (ts < through or (ts == through and c[3] == A.id)) and (tonumber(arrival) or 0) <= tonumber(c[2]) then
      return cjson.encode({status = 'covered'})
    end
  end
end
redis.call('SET', K.claim, A.token, 'EX', A.ttl)
if gone then
  return cjson.encode({status = 'claimed', gone = gone, draft = draft, first = not record, signUp = signUp,
    optedOut = optedOut})
end
local entries = redis.call('ZRANGE', K.log, 0, -1, 'WITHSCORES')
local recent, arrivals = {}, 0
for i = 1, #entries, 2 do
  if entries[i] == '${ARRIVALS_MEMBER}' then arrivals = tonumber(entries[i + 1]) - ${ARRIVALS_BASE}
  elseif entries[i] ~= '${LENGTH_MEMBER}' then recent[#recent + 1] = entries[i] end
end
return cjson.encode({status = 'claimed', draft = draft, first = not record, state = current, recent = recent,
  arrivals = arrivals, signUp = signUp, visibility = visibility, optedOut = optedOut})
`,
});

/**
 * The bot answered. Keys: the conversation's `state`, `log` and `answers`, the trigger's `reply` record.
 * Arguments: the `conversationId`, the `reply` as stored (JSON) and its `ts` (ms), the `through` ts and `id` of
 * the message the answer was for, the ids of the authors it `answered`, the conversation's `ttl` (s), `cap` and
 * how many messages a trim keeps (`keptAfterTrim`), the done mark's `doneTtl` (s), the answer's `trace` (JSON;
 * absent for none) and how many traces to keep (`traces`), the log's `arrivals` when the answer read it.
 * The platforms' echo of the bot's own post never reaches the store: every parser drops the bot's own messages.
 * The log's length is counted here (ZCOUNT) rather than read from its member, so any drift ends at the next
 * answer. The trace list takes the conversation's TTL at each answer, and every later message only pushes the
 * conversation's expiry further out, so the traces never outlive it. A conversation that is gone is never
 * resurrected: the trigger is only marked done (false). The turn recorded replaces the one a stream was still
 * writing (`speaking`, ./speaking.ts), which leaves the state in the same step.
 */
export const RECORD_REPLY = defineScript({
  keys: { state: "key", log: "key", reply: "key", answers: "key" },
  args: z.object({
    conversationId: z.string(),
    reply: z.string(),
    ts: z.number(),
    through: z.number(),
    answered: z.array(z.string()),
    ttl: z.number(),
    cap: z.number(),
    keptAfterTrim: z.number(),
    doneTtl: z.number(),
    trace: z.optional(z.string()),
    traces: z.number(),
    id: z.string(),
    arrivals: z.number(),
  }),
  result: luaFlag,
  lua: `
redis.call('SET', K.reply, 'done', 'EX', A.doneTtl)
local current = redis.call('GET', K.state)
if not current then return 0 end
local s = cjson.decode(current)
if s.id ~= A.conversationId then return 0 end
local length = redis.call('ZCOUNT', K.log, '-inf', '${MESSAGES_BELOW}') + 1
local trim = length > A.cap
if trim then length = A.keptAfterTrim end
redis.call('ZADD', K.log, A.ts, A.reply, ${LENGTH_BASE} + length, '${LENGTH_MEMBER}')
if trim then redis.call('ZREMRANGEBYRANK', K.log, 0, -length - ${COUNTING_MEMBERS + 1}) end
local through = A.through
if through >= (tonumber(s.answeredThrough) or 0) then s.answeredThrough = through end
local coverage = s.coverage or {}
for _, author in ipairs(A.answered) do
  local c = coverage[author]
  if not c or through >= tonumber(c[1]) then coverage[author] = {through, A.arrivals, A.id} end
end
s.coverage = coverage
s.lastBotReplyAt, s.lastBotReplyTo = A.ts, A.answered
s.speaking = nil
redis.call('SET', K.state, cjson.encode(s), 'EX', A.ttl)
redis.call('EXPIRE', K.log, A.ttl)
if A.trace then
  if redis.call('LPUSH', K.answers, A.trace) > A.traces then
    redis.call('LTRIM', K.answers, 0, A.traces - 1)
  end
  redis.call('EXPIRE', K.answers, A.ttl)
end
return 1
`,
});

/**
 * A failed attempt gives its claim back and keeps what it got out. Keys: the trigger's `reply` record and `claim`.
 * Arguments: the attempt's `token`, the `draft` (JSON) and its `ttl` (s). When another attempt holds the claim by
 * now, its draft is the newer one.
 */
export const RELEASE_CLAIM = defineScript({
  keys: { reply: "key", claim: "key" },
  args: z.object({ token: z.string(), draft: z.string(), ttl: z.number() }),
  result: luaFlag,
  lua: `
local found = redis.call('MGET', K.reply, K.claim)
if found[2] and found[2] ~= A.token then return 0 end
if found[2] then redis.call('DEL', K.claim) end
if found[1] == 'done' then return 0 end
redis.call('SET', K.reply, A.draft, 'EX', A.ttl)
return 1
`,
});

/**
 * A long attempt keeps its claim. Keys: the `claim`. Arguments: the attempt's `token`, the claim's `ttl` (s).
 * False when another attempt took the claim meanwhile (this one must stop posting).
 */
export const RENEW_CLAIM = defineScript({
  keys: { claim: "key" },
  args: z.object({ token: z.string(), ttl: z.number() }),
  result: luaFlag,
  lua: `
local holder = redis.call('GET', K.claim)
if holder and holder ~= A.token then return 0 end
redis.call('SET', K.claim, A.token, 'EX', A.ttl)
return 1
`,
});
