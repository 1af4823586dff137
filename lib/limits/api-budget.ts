/**
 * @module
 * Budgets for a platform's rate-tiered methods, shared by every job of a tenant through Redis: Slack counts its
 * tiers per method per workspace, so twenty answers streaming at once must share one minute's calls. Fixed
 * windows of a minute holding half the platform's figure: any 60 s of the platform's overlaps at most two of them,
 * so no minute gets more than its figure. (A sliding window holding 80% would read two windows' counters on every
 * call: 5 Redis commands instead of 2, on every Slack answer's working sign.)
 */
import { rateLimitPrefix } from "../keys.ts";
import type { Redis } from "@upstash/redis/cloudflare";
import { FixedWindow, type WindowMark } from "./fixed-window.ts";

/** The share of a platform's per-minute figure that the budget hands out. */
const HEADROOM = 0.5;
const WINDOW_MS = 60_000;
/** Fail closed after this long: an optional call is left out rather than waited for. */
const BUDGET_TIMEOUT_MS = 1_000;

/** Takes one call of `method`; with `mark`, sets it in the same round trip when the call is within the budget. */
export type CallBudget = (method: string, perMinute: number, mark?: WindowMark) => Promise<boolean>;

/**
 * A key read with every budget call, in the same round trip: a job that takes budget on every update of a stream
 * watches its Stop mark that way, for no command of its own (lib/jobs/write.ts). `seen` hears its value once set.
 */
export interface BudgetWatch {
  key: string;
  seen(value: string): void;
}

/** The call budgets of every tenant, one fixed window per figure a platform names (built once per runtime). */
export class CallBudgets {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #now: () => number;
  readonly #byLimit = new Map<number, FixedWindow>();

  constructor(redis: Redis, prefix: string, now: () => number) {
    this.#redis = redis;
    this.#prefix = prefix;
    this.#now = now;
  }

  /** The budget of one platform's tenant (`<platform>|<tenant>`), reading `watch` with each call. */
  of(where: string, watch?: BudgetWatch): CallBudget {
    return async (method, perMinute, mark) => {
      const limit = Math.max(1, Math.floor(perMinute * HEADROOM));
      let limiter = this.#byLimit.get(limit);
      if (!limiter) {
        limiter = new FixedWindow({
          redis: this.#redis,
          prefix: rateLimitPrefix(this.#prefix, "api"),
          limit,
          windowMs: WINDOW_MS,
          timeoutMs: BUDGET_TIMEOUT_MS,
          onTimeout: "refuse",
          now: this.#now,
        });
        this.#byLimit.set(limit, limiter);
      }
      const verdict = await limiter.limit(`${where}|${method}`, mark, watch?.key);
      if (verdict.watched !== undefined) watch?.seen(verdict.watched);
      return verdict.success;
    };
  }
}
