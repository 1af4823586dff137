/**
 * @module
 * The admin view's door against guessing. Every attempt is counted before its token is compared, in one script,
 * per client (./client-address.ts: an IPv4 address or an IPv6 /64) and in all, so parallel requests get no more
 * guesses than the allowance; a right token gives its count back. Past CLIENT_FAILURES in a window the client gets
 * 429 with Retry-After until its window ends, right token or not; past ALL_FAILURES from everywhere, so do all
 * clients except those that logged in within the last TRUSTED_DAYS: a flood from many addresses can neither guess
 * on nor lock the admin out of where they work from. Someone sharing the admin's client (an office, a /64) can lock
 * it for one window at a time, WINDOW_MINUTES; the admin can always come in from another network.
 */
import { adminLimitKeys } from "../keys.ts";
import type { Services } from "../services.ts";
import { clientId } from "./client-address.ts";

/** Enough for a mistyped token or two; far too few to guess one. */
const CLIENT_FAILURES = 10;
/** Room for a few clients' typos at once; a flood from many addresses stops here. */
const ALL_FAILURES = 100;
const WINDOW_MINUTES = 5;
const WINDOW_MS = WINDOW_MINUTES * 60_000;
const TRUSTED_DAYS = 30;

/**
 * KEYS: the client's count, the count of all clients, the client's trusted mark. ARGV: 1 client allowance, 2 the
 * allowance of all, 3 window ms. A window starts with its first attempt. Returns {1, 0} when the attempt may
 * compare its token (counted), else {0, ms until the window that refused it ends}.
 */
const COUNT_ATTEMPT = `#!lua flags=allow-key-locking
local mine = redis.call('INCR', KEYS[1])
if mine == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
if mine > tonumber(ARGV[1]) then return {0, redis.call('PTTL', KEYS[1])} end
local all = redis.call('INCR', KEYS[2])
if all == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[3]) end
if all > tonumber(ARGV[2]) and redis.call('EXISTS', KEYS[3]) == 0 then return {0, redis.call('PTTL', KEYS[2])} end
return {1, 0}
`;

/** KEYS: the client's count, the count of all, the client's trusted mark. ARGV: 1 trusted ttl s. A right token's count goes back. */
const LOGGED_IN = `#!lua flags=allow-key-locking
for i = 1, 2 do
  if redis.call('EXISTS', KEYS[i]) == 1 then redis.call('DECR', KEYS[i]) end
end
redis.call('SET', KEYS[3], '1', 'EX', ARGV[1])
return 1
`;

export type AdminAttempt = { status: "in" | "wrong" } | { status: "locked"; retryAfterSeconds: number };

/** `address`: CF-Connecting-IP. `tokenIsRight` is asked only when the attempt is within the allowances. */
export async function adminAttempt(rt: Services, address: string, tokenIsRight: () => boolean): Promise<AdminAttempt> {
  const k = adminLimitKeys(rt.settings.REDIS_KEY_PREFIX, await clientId(rt.secrets, address));
  const keys = [k.client, k.all, k.trusted];
  const [allowed, pttl] = (await rt.redis.eval(COUNT_ATTEMPT, keys, [
    String(CLIENT_FAILURES),
    String(ALL_FAILURES),
    String(WINDOW_MS),
  ])) as [number, number];
  if (allowed !== 1) return { status: "locked", retryAfterSeconds: Math.max(1, Math.ceil(pttl / 1000)) };
  if (!tokenIsRight()) return { status: "wrong" };
  await rt.redis.eval(LOGGED_IN, keys, [String(TRUSTED_DAYS * 86_400)]);
  return { status: "in" };
}
