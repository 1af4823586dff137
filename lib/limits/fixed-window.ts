/**
 * @module
 * Calls counted per identifier in fixed windows, with one Redis script per call: INCRBY, and PEXPIRE when the call
 * opened its window; and, for a call that will happen, a mark its caller asked to be set in the same round trip.
 * Every limit of Parley is a fixed window (a sliding one reads two windows' counters on every call); this is the
 * part of @upstash/ratelimit we used, without the 9 KiB gzipped of other algorithms, caches and analytics it brought
 * into the Worker. Keys are `<prefix>:<identifier>:<window number>`, as that library made them.
 */
import type { Redis } from "@upstash/redis/cloudflare";
import { withinMs } from "../deadline.ts";
import { defineScript } from "../redis-script.ts";
import * as z from "../zod.ts";

/**
 * Keys: the window's `counter`, the `mark` to set when within the limit (optional), and a key to `watch` (optional:
 * read in the same round trip, for a caller that would otherwise ask for it on its own). Arguments: the `count` to
 * add, the `windowMs`, the `limit`, the mark's `markTtl` (s). Returns the window's count and the watched key's value
 * ('' when unset).
 */
const COUNT = defineScript({
  keys: { counter: "key", mark: "optional", watch: "optional" },
  args: z.object({ count: z.number(), windowMs: z.number(), limit: z.number(), markTtl: z.number() }),
  result: z.tuple([z.number(), z.string()]),
  lua: `
local used = redis.call('INCRBY', K.counter, A.count)
if used == A.count then redis.call('PEXPIRE', K.counter, A.windowMs) end
if K.mark and used <= A.limit then redis.call('SET', K.mark, '1', 'EX', A.markTtl) end
local watched = K.watch and redis.call('GET', K.watch) or ''
return {used, watched}
`,
});

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
  /** The watched key's value, when it was set. */
  watched?: string;
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

  constructor(options: FixedWindowOptions) {
    this.#o = options;
  }

  /** Counts one call of `identifier`; within the limit, sets `mark`; reads `watch`: all in one round trip. */
  async limit(identifier: string, mark?: WindowMark, watch?: string): Promise<WindowVerdict> {
    const { key, reset } = this.#window(identifier);
    const counted = COUNT.run(
      this.#o.redis,
      { counter: key, mark: mark?.key, watch },
      { count: 1, windowMs: this.#o.windowMs, limit: this.#o.limit, markTtl: mark?.ttlSeconds ?? 0 },
    );
    const ms = this.#o.timeoutMs;
    const answer = ms === undefined ? await counted : await withinMs(counted, ms, () => undefined);
    if (answer === undefined) return { success: this.#o.onTimeout !== "refuse", remaining: 0, reset, timedOut: true };
    const [used, watched] = answer;
    return {
      success: used <= this.#o.limit,
      remaining: Math.max(0, this.#o.limit - used),
      reset,
      timedOut: false,
      ...(watched ? { watched } : {}),
    };
  }

  #window(identifier: string): { key: string; reset: number } {
    const now = (this.#o.now ?? Date.now)();
    const window = Math.floor(now / this.#o.windowMs);
    return { key: `${this.#o.prefix}:${identifier}:${window}`, reset: (window + 1) * this.#o.windowMs };
  }
}
