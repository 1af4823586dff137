/**
 * @module
 * How often one person may have the bot forget them: FORGETS_PER_HOUR requests in an hour from their first, each
 * counted once however often its job runs (a retry after a failed confirmation must still forget and confirm).
 * A "forget me" runs before the reply rate limit and the tenant's budget, and touches every conversation the person
 * spoke in: past the allowance the bot says so once per window (FORGET_LIMIT_NOTICE, which promises nothing it has
 * not done: what the person said since their last forget stays until they ask again), then stays quiet.
 */
import { RedisStore } from "../redis-store.ts";
import { forgetLimitKeys } from "../keys.ts";
import { defineScript } from "../redis-script.ts";
import * as z from "../zod.ts";

const FORGETS_PER_HOUR = 3;
const WINDOW_MS = 3_600_000;

/**
 * Keys: the person's `requests` in the window (a set of trigger ids), their `told` mark. Arguments: the `trigger`
 * id, the `allowance`, the `windowMs`. The window starts with its first request. Returns 'allowed', or past the
 * allowance 'notify' the first time in the window and 'quiet' after.
 */
const COUNT_REQUEST = defineScript({
  keys: { requests: "key", told: "key" },
  args: z.object({ trigger: z.string(), allowance: z.number(), windowMs: z.number() }),
  result: z.enum(["allowed", "notify", "quiet"]),
  lua: `
if redis.call('SISMEMBER', K.requests, A.trigger) == 1 then return 'allowed' end
local made = redis.call('SCARD', K.requests)
if made < A.allowance then
  redis.call('SADD', K.requests, A.trigger)
  if made == 0 then redis.call('PEXPIRE', K.requests, A.windowMs) end
  return 'allowed'
end
if redis.call('SET', K.told, '1', 'NX', 'PX', math.max(1, redis.call('PTTL', K.requests))) then return 'notify' end
return 'quiet'
`,
});

export type ForgetAllowance = "allowed" | "notify" | "quiet";

/** The "forget me" requests each person made in the window (`limit:forget:` in lib/keys.ts). */
export class ForgetRequests extends RedisStore {
  /** Counts the request `triggerId` of `person` (once, however often its job runs) against the allowance. */
  async count(person: string, triggerId: string): Promise<ForgetAllowance> {
    const keys = forgetLimitKeys(this.prefix, person);
    return COUNT_REQUEST.run(
      this.redis,
      { requests: keys.requests, told: keys.told },
      { trigger: triggerId, allowance: FORGETS_PER_HOUR, windowMs: WINDOW_MS },
    );
  }
}
