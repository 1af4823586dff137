/**
 * @module
 * Every model call of a job runs within the daily token budgets (lib/limits/tenant-budget.ts), here and nowhere
 * else: its likely tokens reserved first, the call made, then settled to what it used (a call that ended in [SKIP]
 * or failed included). Past a budget the call is not made. An answer or a catch-up then says so, once a day
 * (./over-budget.ts); the memory job's calls (facts, summary) only learn nothing from that exchange, which is said
 * in a log line (`meteredCall`).
 */
import type { BudgetVerdict } from "../limits/tenant-budget.ts";
import type { JobScope } from "./scope.ts";

/** Who is past their budget, and whether they are to be told now (once a day). */
export type OverBudget = Extract<BudgetVerdict, { allowed: false }>;

/** Hears the tokens of each model call the metered call makes. */
export type OnUsage = (tokens: number) => void;

/** `call`'s result (`done`), or the budget that had no room for its `likelyTokens` (it was not made). */
export async function metered<T>(
  { rt, spender }: JobScope,
  likelyTokens: number,
  call: (onUsage: OnUsage) => Promise<T>,
): Promise<{ done: T } | { over: OverBudget }> {
  const budget = await rt.budgets.reserve(spender, likelyTokens);
  if (!budget.allowed) return { over: budget };
  let used = 0;
  try {
    return {
      done: await call((tokens) => {
        used += tokens;
      }),
    };
  } finally {
    await budget.reservation.settle(used);
  }
}

/** A model call whose refusal costs only its result (the memory job's): null, logged, past the budget. */
export async function meteredCall<T>(
  scope: JobScope,
  what: string,
  likelyTokens: number,
  call: (onUsage: OnUsage) => Promise<T>,
): Promise<T | null> {
  const result = await metered(scope, likelyTokens, call);
  if ("done" in result) return result.done;
  scope.rt.log.info("model_call_over_budget", { ...scope.where, call: what, over: result.over.over });
  return null;
}
