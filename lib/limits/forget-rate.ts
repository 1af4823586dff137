/**
 * @module
 * How often one person may have the bot forget them: FORGETS_PER_HOUR requests in an hour from their first, each
 * counted once however often its job runs (a retry after a failed confirmation must still forget and confirm).
 * A "forget me" runs before the reply rate limit and the tenant's budget, and touches every conversation the person
 * spoke in: past the allowance the bot says so once per window (FORGET_LIMIT_NOTICE, which promises nothing it has
 * not done: what the person said since their last forget stays until they ask again), then stays quiet.
 */
import { forgetLimitKeys, personId } from "../keys.ts";
import type { Job } from "../queue/job.ts";
import type { Services } from "../services.ts";

const FORGETS_PER_HOUR = 3;
const WINDOW_MS = 3_600_000;

/**
 * KEYS: the person's requests in the window (a set of trigger ids), their told mark. ARGV: 1 trigger id,
 * 2 allowance, 3 window ms. The window starts with its first request. Returns 'allowed', or past the allowance
 * 'notify' the first time in the window and 'quiet' after.
 */
const COUNT_REQUEST = `#!lua flags=allow-key-locking
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 'allowed' end
local made = redis.call('SCARD', KEYS[1])
if made < tonumber(ARGV[2]) then
  redis.call('SADD', KEYS[1], ARGV[1])
  if made == 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
  return 'allowed'
end
if redis.call('SET', KEYS[2], '1', 'NX', 'PX', math.max(1, redis.call('PTTL', KEYS[1]))) then return 'notify' end
return 'quiet'
`;

export type ForgetAllowance = "allowed" | "notify" | "quiet";

export async function checkForgetRate(rt: Services, job: Job): Promise<ForgetAllowance> {
  const keys = forgetLimitKeys(rt.settings.REDIS_KEY_PREFIX, personId(job.key, job.trigger.authorId));
  const verdict = await rt.redis.eval(
    COUNT_REQUEST,
    [keys.requests, keys.told],
    [job.trigger.id, String(FORGETS_PER_HOUR), String(WINDOW_MS)],
  );
  return verdict === "notify" || verdict === "quiet" ? verdict : "allowed";
}
