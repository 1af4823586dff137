/**
 * @module
 * Budgets for a platform's rate-tiered methods, shared by every job of a tenant through Redis: Slack counts its
 * tiers per method per workspace, so twenty answers streaming at once must share one minute's calls. Fixed
 * windows of a minute holding half the platform's figure: any 60 s of the platform's overlaps at most two of them,
 * so no minute gets more than its figure. (A sliding window holding 80% would read two windows' counters on every
 * call: 5 Redis commands instead of 2, on every Slack answer's working sign.)
 */
import { rateLimitPrefix } from "../keys.ts";
import type { Services } from "../services.ts";
import { FixedWindow, type WindowMark } from "./fixed-window.ts";

/** The share of a platform's per-minute figure that the budget hands out. */
const HEADROOM = 0.5;
const WINDOW_MS = 60_000;
/** Fail closed after this long: an optional call is left out rather than waited for. */
const BUDGET_TIMEOUT_MS = 1_000;

const cache = new WeakMap<Services, Map<number, FixedWindow>>();

/** Takes one call of `method`; with `mark`, sets it in the same round trip when the call is within the budget. */
export type CallBudget = (method: string, perMinute: number, mark?: WindowMark) => Promise<boolean>;

export function callBudgetFor(rt: Services, where: string): CallBudget {
  return async (method, perMinute, mark) => {
    const limit = Math.max(1, Math.floor(perMinute * HEADROOM));
    let byLimit = cache.get(rt);
    if (!byLimit) cache.set(rt, (byLimit = new Map()));
    let limiter = byLimit.get(limit);
    if (!limiter) {
      limiter = new FixedWindow({
        redis: rt.redis,
        prefix: rateLimitPrefix(rt.settings.REDIS_KEY_PREFIX, "api"),
        limit,
        windowMs: WINDOW_MS,
        timeoutMs: BUDGET_TIMEOUT_MS,
        onTimeout: "refuse",
        now: rt.now,
      });
      byLimit.set(limit, limiter);
    }
    return (await limiter.limit(`${where}|${method}`, mark)).success;
  };
}
