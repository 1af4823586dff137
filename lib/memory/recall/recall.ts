/**
 * @module
 * What the reply job calls before generating: one Vector query with the trigger and its previous turn, filtered
 * to what this place may recall, then the selection for the prompt's data block. Recall only adds to an answer: when
 * Vector fails, the answer goes out without it (the caller logs `recall_failed`).
 */
import { RECALL_SEARCH_MODE, type RecallIndex, type SearchMode } from "./client.ts";
import type { RecalledPassage } from "./format.ts";
import { selectRecalled, type SelectOptions } from "./select.ts";

/** Hits asked for: more than fit the budget, so that the threshold and the window still leave enough. */
const RECALL_TOP_K = 8;
/**
 * On the weighted DBSF scale of RECALL_SEARCH_MODE (each list mapped by μ ± 3σ, the dense one at half weight, then
 * added: about 1.5 when both lists put a passage well ahead). Chosen on bench/recall's train split
 * (bench/recall/tune.ts): as many answers with nothing relevant get a passage as with the fusion before (Upstash's
 * DBSF of 10 hits, at 1.6). The scale comes from the score distribution, not the model, so it carries over to the
 * hosted model.
 */
export const RECALL_MIN_SCORE = 1.4;

/**
 * DBSF maps each list by its own spread (μ ± 3σ), so in a place with few passages the right one may not reach
 * RECALL_MIN_SCORE: of n passages the best maps to at most (3 + √(n − 1)) / 6 in each list (a lone one to 1), so two
 * passages that share words score at most 1.33 with equal weights. When fewer passages than asked for are ranked,
 * the place holds only those, and the bar is lowered in proportion to the best score reachable among them (the
 * lists' weights cancel out): a small place is asked for the same standing as a large one (first in both lists
 * passes; a passage only one list found does not).
 */
function reachableMinScore(minScore: number, hits: number, topK: number, fusion: SearchMode["fusion"]): number {
  if (fusion !== "DBSF" || hits >= topK) return minScore;
  return (minScore * bestDbsfScore(hits)) / bestDbsfScore(topK);
}

function bestDbsfScore(passages: number): number {
  return passages <= 1 ? 2 : (2 * (3 + Math.sqrt(passages - 1))) / 6;
}

export interface RecallRequest extends Omit<SelectOptions, "minScore"> {
  namespace: string;
  filter: string;
  queryText: string;
  minScore?: number;
  mode?: SearchMode;
}

export type Recalled =
  | { outcome: "recalled" | "nothing"; passages: RecalledPassage[]; malformed: number }
  | { outcome: "unavailable"; passages: []; error: string };

export async function recallForAnswer(index: RecallIndex, req: RecallRequest): Promise<Recalled> {
  let found: Awaited<ReturnType<RecallIndex["search"]>>;
  try {
    found = await index.search(req.namespace, {
      text: req.queryText,
      filter: req.filter,
      topK: RECALL_TOP_K,
      mode: req.mode,
    });
  } catch (err) {
    return { outcome: "unavailable", passages: [], error: err instanceof Error ? err.name : "unknown" };
  }
  const fusion = (req.mode ?? RECALL_SEARCH_MODE).fusion;
  const minScore = reachableMinScore(req.minScore ?? RECALL_MIN_SCORE, found.ranked.of, found.ranked.asked, fusion);
  const passages = selectRecalled(found.hits, { ...req, minScore });
  return { outcome: passages.length > 0 ? "recalled" : "nothing", passages, malformed: found.malformed };
}
