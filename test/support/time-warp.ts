/**
 * @module
 * "Time passes" for tests of timing paths, without waiting: moves, by the same amount and in step, the virtual
 * clock of the suite's QStash lane and the TTLs of the suite's Redis keys.
 *
 * What moves: QStash deliveries, retries (12 s, 148 s, 1808 s), Retry-After, Upstash-Delay, Not-Before and
 * deduplication windows (all in the lane's virtual time); the PTTL of every key under the suite's prefix, shortened
 * by the time passed, and keys whose TTL runs out deleted — so claims, dedupe marks and conversations expire as
 * they would. Time walks from one QStash due time to the next: at each, the keys are aged to that instant before
 * the deliveries due then go out, so a delivery sees exactly the keys that would still exist.
 *
 * What does NOT move: the Worker's Date.now (and so every timestamp it writes or compares: lastActivityAt,
 * answeredThrough, follow-up windows, @upstash/ratelimit windows, Discord interaction expiry, Slack signature
 * freshness); timestamps stored inside values; redis-server's own TIME; keys without a TTL; keys of other suites;
 * the platform fakes. A test must not rely on the Worker noticing that time passed except through expired keys and
 * late deliveries: e.g. after "10 minutes pass" the Worker still takes its last answer to be seconds old.
 */
import type { Redis } from "@upstash/redis";
import { advanceClock, type DeliveryRecord } from "./qstash-clock.ts";

/** Either @upstash/redis client (Node or Cloudflare), talking straight to the bridge, not through a fault proxy. */
export type WarpRedis = Pick<Redis, "scan" | "eval">;

export interface TimeWarpTarget {
  /** The suite's QStash lane (its virtual clock). */
  qstashUrl: string;
  redis: WarpRedis;
  /** The suite's key prefix, e.g. "t-mysuite:" (REDIS_KEY_PREFIX and its separator). */
  keyPrefix: string;
}

export interface TimePassed {
  /** The lane's clock afterwards. */
  now: number;
  /** Every QStash delivery attempt made while time passed, in order. */
  deliveries: DeliveryRecord[];
  /** The keys whose TTL ran out. */
  expiredKeys: string[];
}

const SCAN_COUNT = 1000;

/** KEYS: keys to age. ARGV: 1 ms. Shortens each TTL by ms and deletes the keys whose TTL runs out; answers those. */
const AGE_KEYS = `#!lua flags=allow-key-locking
local ms, expired = tonumber(ARGV[1]), {}
for _, key in ipairs(KEYS) do
  local ttl = redis.call('PTTL', key)
  if ttl > 0 and ttl <= ms then
    redis.call('DEL', key)
    expired[#expired + 1] = key
  elseif ttl > 0 then
    redis.call('PEXPIRE', key, ttl - ms)
  end
end
return expired
`;

/** Ages every key under `keyPrefix` by `ms`: TTLs shorten, keys whose TTL runs out are deleted (and returned). */
export async function warpRedisTtls(redis: WarpRedis, keyPrefix: string, ms: number): Promise<string[]> {
  if (ms <= 0) return [];
  const match = `${keyPrefix.replace(/[*?[\]\\]/g, "\\$&")}*`;
  const expired: string[] = [];
  let cursor: string | number = 0;
  do {
    const [next, keys]: [string | number, string[]] = await redis.scan(cursor, { match, count: SCAN_COUNT });
    if (keys.length > 0) expired.push(...((await redis.eval(AGE_KEYS, keys, [ms])) as string[]));
    cursor = next;
  } while (String(cursor) !== "0");
  return expired;
}

/** Lets `ms` pass for the suite: see the module comment for what moves and what does not. */
export async function timePasses(target: TimeWarpTarget, ms: number): Promise<TimePassed> {
  let state = await advanceClock(target.qstashUrl, { ms: 0 });
  const end = state.now + ms;
  const deliveries = [...state.deliveries];
  const expiredKeys: string[] = [];
  while (state.now < end) {
    const step = state.nextDueAt !== null && state.nextDueAt < end ? Math.max(state.nextDueAt, state.now) : end;
    expiredKeys.push(...(await warpRedisTtls(target.redis, target.keyPrefix, step - state.now)));
    state = await advanceClock(target.qstashUrl, { to: step });
    deliveries.push(...state.deliveries);
  }
  return { now: state.now, deliveries, expiredKeys };
}
