/**
 * @module
 * Rate-limit buckets for the platform fakes: at most `limit` calls per bucket key in a window that opens with the
 * bucket's first call (how Discord's buckets behave, and close enough to Slack's per-minute tiers), and a count
 * of every refusal by label (a Slack method, a Discord route) so that tests and benches can assert "no call was
 * refused". Scripted 429s (./faults.ts) are not counted here: they are listed with the injected faults.
 */

export interface LimitRule {
  limit: number;
  windowMs: number;
}

export interface LimitVerdict {
  allowed: boolean;
  limit: number;
  /** Calls left in the window after this one. */
  remaining: number;
  /** Until the window ends and the bucket is full again. */
  resetAfterMs: number;
  /** Epoch ms of that moment. */
  resetAt: number;
}

export interface RefusalCounts {
  total: number;
  byLabel: Record<string, number>;
}

export class RateLimiter {
  #windows = new Map<string, { start: number; count: number; windowMs: number }>();
  #refusals = new Map<string, number>();

  /** Counts one call against `key`'s bucket; a refused call is counted under `label` and not against the bucket. */
  hit(key: string, rule: LimitRule, label: string, now = Date.now()): LimitVerdict {
    let window = this.#windows.get(key);
    if (!window || now >= window.start + window.windowMs) {
      window = { start: now, count: 0, windowMs: rule.windowMs };
      this.#windows.set(key, window);
    }
    const resetAt = window.start + window.windowMs;
    const verdict = { limit: rule.limit, resetAt, resetAfterMs: Math.max(0, resetAt - now) };
    if (window.count >= rule.limit) {
      this.#refusals.set(label, (this.#refusals.get(label) ?? 0) + 1);
      return { ...verdict, allowed: false, remaining: 0 };
    }
    window.count += 1;
    return { ...verdict, allowed: true, remaining: rule.limit - window.count };
  }

  refusals(): RefusalCounts {
    const byLabel = Object.fromEntries(this.#refusals);
    return { total: Object.values(byLabel).reduce((sum, n) => sum + n, 0), byLabel };
  }

  reset(): void {
    this.#windows.clear();
    this.#refusals.clear();
  }
}
