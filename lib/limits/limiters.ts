/**
 * @module
 * The @upstash/ratelimit instances of one runtime, built once and kept with it: their in-memory cache of blocked
 * identifiers then survives across the requests an isolate serves, saving a Redis call per blocked attempt.
 */
import { Ratelimit } from "@upstash/ratelimit";
import { rateLimitPrefix } from "../keys.ts";
import type { Runtime } from "../runtime.ts";

export interface Limiters {
  /** Answers per person (platform, tenant, author) per RATE_LIMIT_WINDOW_SECONDS. */
  replies: Ratelimit;
  /** Judge calls per conversation per minute. */
  judge: Ratelimit;
  /** Failed admin-view attempts per client address. */
  adminFailures: Ratelimit;
}

const JUDGE_WINDOW = "60 s";
/** Enough for a mistyped token or two; far too few to guess one. */
const ADMIN_FAILURES = 10;
const ADMIN_FAILURE_WINDOW = "15 m";
/** Fail open after this long: a slow Redis must not silence the bot. */
const LIMIT_TIMEOUT_MS = 2_000;

const cache = new WeakMap<Runtime, Limiters>();

export function limitersFor(rt: Runtime): Limiters {
  let limiters = cache.get(rt);
  if (!limiters) {
    const s = rt.settings;
    limiters = {
      replies: new Ratelimit({
        redis: rt.redis,
        prefix: rateLimitPrefix(s.REDIS_KEY_PREFIX, "reply"),
        // Fixed, not sliding: a sliding window reads the previous window's count too (two more commands per
        // answer); the price is that a person can get up to twice the limit across a window boundary.
        limiter: Ratelimit.fixedWindow(s.RATE_LIMIT_REPLIES, `${s.RATE_LIMIT_WINDOW_SECONDS} s`),
        timeout: LIMIT_TIMEOUT_MS,
      }),
      judge: new Ratelimit({
        redis: rt.redis,
        prefix: rateLimitPrefix(s.REDIS_KEY_PREFIX, "judge"),
        limiter: Ratelimit.fixedWindow(s.MAX_JUDGE_CALLS_PER_MINUTE, JUDGE_WINDOW),
        timeout: LIMIT_TIMEOUT_MS,
      }),
      adminFailures: new Ratelimit({
        redis: rt.redis,
        prefix: rateLimitPrefix(s.REDIS_KEY_PREFIX, "admin"),
        limiter: Ratelimit.fixedWindow(ADMIN_FAILURES, ADMIN_FAILURE_WINDOW),
      }),
    };
    cache.set(rt, limiters);
  }
  return limiters;
}
