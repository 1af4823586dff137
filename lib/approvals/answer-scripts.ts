/**
 * @module
 * The scripts that open a confirm tool's approval and answer it (./record.ts): a person's ✅ or ❌ (or a press), and
 * on SMS the close of a question something else was said after. Every change is one script: a duplicate reaction, a
 * double click or a redelivered webhook finds the state decided and changes nothing. It may be answered while its
 * window key lives (`approvalWindowKey`, APPROVAL_TTL_MINUTES): Redis's clock says when it expired, so that the
 * Worker's clock cannot disagree with it.
 */
import { defineScript } from "../redis-script.ts";
import * as z from "../zod.ts";
import { RECORD_KEYS, STATES } from "./record.ts";

/**
 * Opens the approval once (a retried question finds it open). Keys: the record, its window, the answers that came
 * before it (`early`, see DECIDE), and where it is answered by a reply, the place's pending question (`asked`: the
 * latest wins). Arguments: the `asker`, the `window`'s life (s), the `call` (JSON), the sealed `job` (JSON), the
 * record's `ttl` (s), the `question`'s id. The asker's early answer decides it as it opens (anyone else's does
 * nothing, as it would have on an open one). Returns whether this call `opened` it and its `state` now.
 */
export const OPEN = defineScript({
  keys: { ...RECORD_KEYS, early: "key", asked: "optional" },
  args: z.object({
    asker: z.string(),
    window: z.number(),
    call: z.string(),
    job: z.string(),
    ttl: z.number(),
    question: z.string(),
  }),
  result: z.object({ opened: z.boolean(), state: z.enum(STATES) }),
  lua: `
local now = redis.call('HGET', K.record, 'state')
if now then return cjson.encode({opened = false, state = now}) end
local state = redis.call('HGET', K.early, A.asker) or 'pending'
redis.call('DEL', K.early)
redis.call('HSET', K.record, 'state', state, 'asker', A.asker, 'call', A.call, 'job', A.job)
redis.call('EXPIRE', K.record, A.ttl)
redis.call('SET', K.window, '1', 'EX', A.window)
if K.asked and state == 'pending' then redis.call('SET', K.asked, A.question, 'EX', A.window) end
return cjson.encode({opened = true, state = state})
`,
});

/**
 * A person's ✅ or ❌. Arguments: `who` reacted, the `state` it asks for, the approval `window`'s life (s). Only the
 * asker decides, and only a pending approval whose window is open; a decided one answers its state again (so that a
 * webhook retried after a lost publish publishes the same continuation once more); a pending one past its window
 * answers `expired` (the continuation's own look records it). On a message with no record, the answer may have come
 * between the question's post and its open: with `keep`, each person's first is `kept` under `early` for the
 * window's life, for OPEN to take the asker's; without (a press: controls show only once it is open), `absent`.
 * Else {state, job, decided, asker} (`decided`: this call decided it; `job` only for the asker, `asker` only for
 * anyone else).
 */
export const DECIDE = defineScript({
  keys: { ...RECORD_KEYS, early: "key" },
  args: z.object({ who: z.string(), state: z.enum(["approved", "denied"]), window: z.number(), keep: z.boolean() }),
  result: z.union([
    z.literal("kept"),
    z.literal("absent"),
    z.object({
      state: z.enum(STATES),
      decided: z.boolean(),
      job: z.optional(z.string()),
      asker: z.optional(z.string()),
    }),
  ]),
  lua: `
local f = redis.call('HMGET', K.record, 'state', 'asker', 'job')
if not f[1] then
  if not A.keep then return 'absent' end
  if redis.call('HSETNX', K.early, A.who, A.state) == 1 then redis.call('EXPIRE', K.early, A.window) end
  return 'kept'
end
if f[2] ~= A.who then return cjson.encode({state = f[1], decided = false, asker = f[2]}) end
if f[1] == 'pending' then
  if redis.call('EXISTS', K.window) == 0 then return cjson.encode({state = 'expired', decided = false}) end
  redis.call('HSET', K.record, 'state', A.state)
  return cjson.encode({state = A.state, decided = true, job = f[3]})
end
return cjson.encode({state = f[1], decided = false, job = f[3]})
`,
});

/**
 * The place's pending question is past answering by a reply: something else was said since. Keys: the record and
 * window of the `question` the place's `asked` key named. The asked key goes (if it still names it); a pending
 * question still open is `closed`. Returns {job} (its sealed continuation) when this call closed it, else ''.
 */
export const CLOSE = defineScript({
  keys: { ...RECORD_KEYS, asked: "key" },
  args: z.object({ question: z.string() }),
  result: z.union([z.literal(""), z.object({ job: z.string() })]),
  lua: `
if redis.call('GET', K.asked) == A.question then redis.call('DEL', K.asked) end
local f = redis.call('HMGET', K.record, 'state', 'job')
if f[1] ~= 'pending' or redis.call('EXISTS', K.window) == 0 then return '' end
redis.call('HSET', K.record, 'state', 'closed')
return cjson.encode({job = f[2]})
`,
});

/**
 * The question is out and its id known: the answers kept under the name it had while its send was unconfirmed
 * (`from`, ./open.ts `questionStarting`) move to its own `early` (`to`), each person's first staying first, for the
 * approval's `window` (s).
 */
export const CARRY_EARLY = defineScript({
  keys: { from: "key", to: "key" },
  args: z.object({ window: z.number() }),
  result: z.literal(""),
  lua: `
local kept = redis.call('HGETALL', K.from)
if #kept == 0 then return '' end
for i = 1, #kept, 2 do redis.call('HSETNX', K.to, kept[i], kept[i + 1]) end
redis.call('EXPIRE', K.to, A.window)
redis.call('DEL', K.from)
return ''
`,
});
