/**
 * @module
 * Calls counted per identifier in fixed windows, with one Redis script per call: INCRBY, and PEXPIRE when the call
 * opened its window; and, for a call that will happen, a mark its caller asked to be set in the same round trip. Every limit of Parley is a fixed window (a sliding one reads two windows' counters on every
 * call); this is the part of @upstash/ratelimit we used, without the 9 KiB gzipped of other algorithms, caches and
 * analytics it brought into the Worker. Keys are `<prefix>:<identifier>:<window number>`, as that library made them.
 */
import type { Redis } from "@upstash/redis/cloudflare";
import { withinMs } from "../deadline.ts";

/** KEYS: the window's counter, and the mark to set when within the limit (optional). ARGV: 1 count, 2 window ms, 3 limit, 4 mark ttl s. */
const COUNT = `#!lua flags=allow-key-locking
local used = redis.call('INCRBY', KEYS[1], ARGV[1])
if used == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if KEYS[2] and used <= tonumber(ARGV[3]) then redis.call('SET', KEYS[2], '1', 'EX', ARGV[4]) end
return used
`;

/** A key set with its TTL when a counted call is within the limit (the call is to happen). */
export interface WindowMark {
  key: string;
  ttlSeconds: number;
}

export interface WindowVerdict {
  /** Within the limit (this call counted). */
  success: boolean;
  /** Calls left in the window after this one. */
  remaining: number;
  /** When the window ends (ms since the epoch). */
  reset: number;
  /** Redis did not answer within `timeoutMs`: the verdict is the limiter's `onTimeout`. */
  timedOut: boolean;
}

export interface FixedWindowOptions {
  redis: Redis;
  prefix: string;
  limit: number;
  windowMs: number;
  /** Give up on Redis after this long and answer `onTimeout` (a slow Redis must not hold a job). */
  timeoutMs?: number;
  onTimeout?: "allow" | "refuse";
  now?: () => number;
}

export class FixedWindow {
  readonly #o: FixedWindowOptions;
  readonly #count;

  constructor(options: FixedWindowOptions) {
    this.#o = options;
    this.#count = options.redis.createScript<number>(COUNT);
  }

  /** Counts one call of `identifier`; within the limit, sets `mark` in the same round trip. */
  async limit(identifier: string, mark?: WindowMark): Promise<WindowVerdict> {
    const { key, reset } = this.#window(identifier);
    const counted = this.#count.exec(mark ? [key, mark.key] : [key], [
      "1",
      String(this.#o.windowMs),
      String(this.#o.limit),
      String(mark?.ttlSeconds ?? 0),
    ]);
    const ms = this.#o.timeoutMs;
    const used = ms === undefined ? await counted : await withinMs(counted, ms, () => undefined);
    if (used === undefined) return { success: this.#o.onTimeout !== "refuse", remaining: 0, reset, timedOut: true };
    return { success: used <= this.#o.limit, remaining: Math.max(0, this.#o.limit - used), reset, timedOut: false };
  }

  #window(identifier: string): { key: string; reset: number } {
    const now = (this.#o.now ?? Date.now)();
    const window = Math.floor(now / this.#o.windowMs);
    return { key: `${this.#o.prefix}:${identifier}:${window}`, reset: (window + 1) * this.#o.windowMs };
  }
}
