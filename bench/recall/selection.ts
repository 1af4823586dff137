/**
 * @module
 * What recall puts into prompts at a relevance threshold: how often the right passage is among the passages
 * selected, how often an answer whose right passage is missing from the index still gets something (noise), and
 * the tokens the recalled lines add to the prompt's data block, under recall's share of the default prompt budget.
 */
import type { RecalledPassage } from "../../lib/memory/recall/format.ts";
import { recallBudgetTokens, recallTokens } from "../../lib/memory/recall/format.ts";
import { selectRecalled } from "../../lib/memory/recall/select.ts";
import { NO_WINDOW, type Question } from "./cases.ts";
import { percentile } from "./metrics.ts";

/** The default PROMPT_TOKEN_BUDGET. */
export const PROMPT_BUDGET = 6_000;

export interface SelectionFigures {
  minScore: number;
  /** Answers whose prompt carries the right passage. */
  rightInPrompt: number;
  /** Answers with the right passage removed from the index that still get a recalled passage. */
  recalledWithoutRight: number;
  tokensMean: number;
  tokensP95: number;
}

export function selectionAt(
  minScore: number,
  questions: Question[],
  hits: RecalledPassage[][],
  hitsWithoutRight: RecalledPassage[][],
): SelectionFigures {
  const select = (q: Question, h: RecalledPassage[]) =>
    selectRecalled(h, { now: q.ts, minScore, window: NO_WINDOW, maxTokens: recallBudgetTokens(PROMPT_BUDGET) });
  let right = 0;
  let noise = 0;
  const tokens: number[] = [];
  questions.forEach((q, i) => {
    const chosen = select(q, hits[i]!);
    if (chosen.some((p) => p.id === q.answer)) right++;
    tokens.push(recallTokens(chosen));
    if (select(q, hitsWithoutRight[i]!).length > 0) noise++;
  });
  const share = (n: number) => Math.round((n / Math.max(1, questions.length)) * 1000) / 1000;
  return {
    minScore,
    rightInPrompt: share(right),
    recalledWithoutRight: share(noise),
    tokensMean: Math.round(tokens.reduce((a, b) => a + b, 0) / Math.max(1, tokens.length)),
    tokensP95: percentile(tokens, 95),
  };
}
