/**
 * @module
 * The fixed-window limiters of one runtime (./fixed-window.ts), built once with its other stores (lib/stores.ts).
 */
import type { Redis } from "@upstash/redis/cloudflare";
import type { Settings } from "../config.ts";
import { rateLimitPrefix } from "../keys.ts";
import { FixedWindow } from "./fixed-window.ts";

export interface Limiters {
  /** Answers per person (platform, tenant, author) per RATE_LIMIT_WINDOW_SECONDS. */
  replies: FixedWindow;
  /** Judge calls per conversation per minute. */
  judge: FixedWindow;
  /** Unprompted answers (./initiative-cap.ts) and rescued questions (lib/rescue/job.ts) per channel per hour. */
  initiative: FixedWindow;
  rescue: FixedWindow;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
/** Fail open after this long: a slow Redis must not silence the bot. */
const LIMIT_TIMEOUT_MS = 2_000;

/** The limiters, counting under `prefix` (REDIS_KEY_PREFIX) by `now` (the runtime's clock, read at each call). */
export function createLimiters(redis: Redis, prefix: string, s: Settings, now: () => number): Limiters {
  const keys = (name: Parameters<typeof rateLimitPrefix>[1]) => rateLimitPrefix(prefix, name);
  // Per channel per hour; what nobody asked for is better left out when Redis is slow.
  const hourly = (name: "initiative" | "rescue", limit: number) =>
    new FixedWindow({
      redis,
      prefix: keys(name),
      limit,
      windowMs: HOUR_MS,
      timeoutMs: LIMIT_TIMEOUT_MS,
      onTimeout: "refuse",
      now,
    });
  return {
    // A person can get up to twice the limit across a window boundary: fine for an abuse limit, and a sliding
    // window would read the previous window's count on every answer.
    replies: new FixedWindow({
      redis,
      prefix: keys("reply"),
      limit: s.RATE_LIMIT_REPLIES,
      windowMs: s.RATE_LIMIT_WINDOW_SECONDS * 1000,
      timeoutMs: LIMIT_TIMEOUT_MS,
      onTimeout: "allow",
      now,
    }),
    judge: new FixedWindow({
      redis,
      prefix: keys("judge"),
      limit: s.MAX_JUDGE_CALLS_PER_MINUTE,
      windowMs: MINUTE_MS,
      timeoutMs: LIMIT_TIMEOUT_MS,
      onTimeout: "allow",
      now,
    }),
    initiative: hourly("initiative", s.INITIATIVE_MAX_PER_HOUR),
    rescue: hourly("rescue", s.RESCUE_MAX_PER_HOUR),
  };
}
