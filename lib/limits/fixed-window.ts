/**
 * @module
 * Calls counted per identifier in fixed windows, with one Redis script per call: INCRBY, and PEXPIRE when the call
 * opened its window. Every limit of Parley is a fixed window (a sliding one reads two windows' counters on every
 * call); this is the part of @upstash/ratelimit we used, without the 9 KiB gzipped of other algorithms, caches and
 * analytics it brought into the Worker. Keys are `<prefix>:<identifier>:<window number>`, as that library made them.
 */
import type { Redis } from "@upstash/redis/cloudflare";
import { withinMs } from "../deadline.ts";

const COUNT = `#!lua flags=allow-key-locking
local used = redis.call('INCRBY', KEYS[1], ARGV[1])
if used == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return used
`;

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

  /** Counts one call of `identifier`. */
  async limit(identifier: string): Promise<WindowVerdict> {
    const { key, reset } = this.#window(identifier);
    const counted = this.#count.exec([key], ["1", String(this.#o.windowMs)]);
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
