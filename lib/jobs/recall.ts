/**
 * @module
 * The reply job's part of recall: one Vector query per answer (the trigger and the turn before it), filtered to
 * the place's own channel and visibility in the tenant's namespace, leaving out what the prompt already carries;
 * the chosen passages become lines of the prompt's data block, within recall's share of the budget. Recall only
 * adds to an answer: when Vector fails, the answer goes out without it (`recall_failed`).
 */
import type { EarlierRecord } from "../context/data-block.ts";
import { recallFilter } from "../memory/recall/filters.ts";
import { earlierRecord, recallBudgetTokens, recallTokens } from "../memory/recall/format.ts";
import { recallQueryText } from "../memory/recall/query-text.ts";
import { recallForAnswer } from "../memory/recall/recall.ts";
import type { StoredMessage } from "../message.ts";
import type { JobScope } from "./scope.ts";

/**
 * `log` is the conversation's stored messages (oldest first), `turn` those the prompt carries, the one answered
 * last. Nothing (and no request) when recall is off.
 */
export async function recalledForAnswer(
  scope: JobScope,
  log: StoredMessage[],
  turn: StoredMessage[],
): Promise<EarlierRecord[]> {
  const { rt, job, where } = scope;
  const { recall } = rt;
  const current = turn.at(-1);
  if (!recall || !current) return [];
  const recalled = await recallForAnswer(recall.index, {
    namespace: recall.namespace(job.key),
    filter: recallFilter(job.key, await scope.visibility()),
    queryText: recallQueryText(job.bot, turn, current.id),
    now: rt.now(),
    window: { conversationId: job.conversationId, since: log[0]?.ts ?? current.ts },
    maxTokens: recallBudgetTokens(rt.settings.PROMPT_TOKEN_BUDGET),
  });
  if (recalled.outcome === "unavailable") {
    rt.log.warn("recall_failed", { ...where, error: recalled.error });
    return [];
  }
  rt.log.info("recalled", {
    ...where,
    outcome: recalled.outcome,
    passages: recalled.passages.length,
    scores: recalled.passages.map((p) => Math.round(p.score * 1000) / 1000),
    tokens: recallTokens(recalled.passages),
    malformed: recalled.malformed,
  });
  return recalled.passages.map(earlierRecord);
}
