/**
 * @module
 * One model call of a job within the daily token budgets (lib/limits/tenant-budget.ts): its likely tokens reserved
 * first, the call made, then settled to what it used. Past the budget the call is not made: for the memory job's
 * calls (facts, summary) that only means nothing is learned from that exchange, which is said in a log line.
 */
import type { JobScope } from "./scope.ts";

/** The call's result, or null when the budget had no room for it (the call was not made). */
export async function meteredCall<T>(
  scope: JobScope,
  what: string,
  likelyTokens: number,
  call: (onUsage: (tokens: number) => void) => Promise<T>,
): Promise<T | null> {
  const { rt, spender, where } = scope;
  const budget = await rt.budgets.reserve(spender, likelyTokens);
  if (!budget.allowed) {
    rt.log.info("model_call_over_budget", { ...where, call: what, over: budget.over });
    return null;
  }
  let used = 0;
  try {
    return await call((tokens) => void (used += tokens));
  } finally {
    await budget.reservation.settle(used);
  }
}
