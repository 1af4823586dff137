/**
 * @module
 * Past a daily budget (./metered.ts refused the call) an answer or a catch-up ends with the person told, once a day,
 * like any notice: it goes out through the draft (./post.ts), so that a retry never posts it twice.
 */
import type { PostedOutcome } from "../conversation/draft.ts";
import { BUDGET_NOTICE, PERSON_BUDGET_NOTICE } from "../notices.ts";
import type { OverBudget } from "./metered.ts";
import { finishDraft } from "./post.ts";
import type { AnswerScope } from "./scope.ts";

/** Past a daily budget an answer (or a catch-up) ends, the person told once a day, like any notice. */
export async function toldOverBudget(scope: AnswerScope, over: OverBudget): Promise<PostedOutcome | "over_budget"> {
  scope.rt.log.info(`${over.over}_over_budget`, { ...scope.where, notice: over.notify });
  // A catch-up's progress line already shows: it says why the summary does not follow, even if told today.
  if (!over.notify && !scope.attempt.draft.stream) return "over_budget";
  scope.attempt.write(over.over === "tenant" ? BUDGET_NOTICE : PERSON_BUDGET_NOTICE, "over_budget");
  return finishDraft(scope);
}
