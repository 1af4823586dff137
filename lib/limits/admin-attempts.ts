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
import { RedisStore } from "../redis-store.ts";
import { adminLimitKeys } from "../keys.ts";
import { defineScript } from "../redis-script.ts";
import type { Services } from "../services.ts";
import * as z from "../zod.ts";
import { clientId } from "./client-address.ts";

/** Enough for a mistyped token or two; far too few to guess one. */
const CLIENT_FAILURES = 10;
/** Room for a few clients' typos at once; a flood from many addresses stops here. */
const ALL_FAILURES = 100;
const WINDOW_MINUTES = 5;
const WINDOW_MS = WINDOW_MINUTES * 60_000;
const TRUSTED_DAYS = 30;

/** An attempt's keys: the client's count, the count of all clients, the client's trusted mark. */
const ATTEMPT_KEYS = { client: "key", all: "key", trusted: "key" } as const;

/**
 * Arguments: the client's `allowance`, the `allowanceOfAll`, the `windowMs`. A window starts with its first
 * attempt. Returns {1, 0} when the attempt may compare its token (counted), else {0, ms until the window that
 * refused it ends}.
 */
const COUNT_ATTEMPT = defineScript({
  keys: ATTEMPT_KEYS,
  args: z.object({ allowance: z.number(), allowanceOfAll: z.number(), windowMs: z.number() }),
  result: z.tuple([z.number(), z.number()]),
  lua: `
local mine = redis.call('INCR', K.client)
if mine == 1 then redis.call('PEXPIRE', K.client, A.windowMs) end
if mine > A.allowance then return {0, redis.call('PTTL', K.client)} end
local all = redis.call('INCR', K.all)
if all == 1 then redis.call('PEXPIRE', K.all, A.windowMs) end
if all > A.allowanceOfAll and redis.call('EXISTS', K.trusted) == 0 then return {0, redis.call('PTTL', K.all)} end
return {1, 0}
`,
});

/** Arguments: the trusted mark's `trustedTtl` (s). A right token's count goes back. */
const LOGGED_IN = defineScript({
  keys: ATTEMPT_KEYS,
  args: z.object({ trustedTtl: z.number() }),
  result: z.number(),
  lua: `
for _, key in ipairs({K.client, K.all}) do
  if redis.call('EXISTS', key) == 1 then redis.call('DECR', key) end
end
redis.call('SET', K.trusted, '1', 'EX', A.trustedTtl)
return 1
`,
});

export type AdminAttempt = { status: "in" | "wrong" } | { status: "locked"; retryAfterSeconds: number };

/** The admin view's counts of attempts per client and in all (`limit:admin:` in lib/keys.ts), and who logged in. */
export class AdminAttempts extends RedisStore {
  /** Counts an attempt of `client`; {1, 0} when it may compare its token, else {0, ms until it may try again}. */
  count(client: string): Promise<[number, number]> {
    return COUNT_ATTEMPT.run(this.redis, adminLimitKeys(this.prefix, client), {
      allowance: CLIENT_FAILURES,
      allowanceOfAll: ALL_FAILURES,
      windowMs: WINDOW_MS,
    });
  }

  /** A right token: its count goes back, and its client is trusted for TRUSTED_DAYS. */
  async loggedIn(client: string): Promise<void> {
    await LOGGED_IN.run(this.redis, adminLimitKeys(this.prefix, client), { trustedTtl: TRUSTED_DAYS * 86_400 });
  }
}

/** `address`: CF-Connecting-IP. `tokenIsRight` is asked only when the attempt is within the allowances. */
export async function adminAttempt(
  rt: Pick<Services, "secrets"> & { adminAttempts: AdminAttempts },
  address: string,
  tokenIsRight: () => boolean,
): Promise<AdminAttempt> {
  const client = await clientId(rt.secrets, address);
  const [allowed, pttl] = await rt.adminAttempts.count(client);
  if (allowed !== 1) return { status: "locked", retryAfterSeconds: Math.max(1, Math.ceil(pttl / 1000)) };
  if (!tokenIsRight()) return { status: "wrong" };
  await rt.adminAttempts.loggedIn(client);
  return { status: "in" };
}
