/**
 * @module
 * The look of an approval's continuation (./continuation.ts) at its record (./record.ts): a pending approval whose
 * window closed expires here, by Redis's clock.
 */
import { defineScript } from "../redis-script.ts";
import * as z from "../zod.ts";
import { RECORD_KEYS, STATES } from "./record.ts";

/**
 * The continuation's look: a pending approval whose window closed expires here. Returns '' when there is none,
 * else {state, call, calling, result}.
 */
export const SETTLE = defineScript({
  keys: RECORD_KEYS,
  args: z.object({}),
  result: z.union([
    z.literal(""),
    z.object({
      state: z.enum(STATES),
      call: z.string(),
      calling: z.optional(z.string()),
      result: z.optional(z.string()),
    }),
  ]),
  lua: `
local f = redis.call('HMGET', K.record, 'state', 'call', 'calling', 'result')
if not f[1] then return '' end
local state = f[1]
if state == 'pending' and redis.call('EXISTS', K.window) == 0 then
  state = 'expired'
  redis.call('HSET', K.record, 'state', state)
end
return cjson.encode({state = state, call = f[2], calling = f[3] or nil, result = f[4] or nil})
`,
});
