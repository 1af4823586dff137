/**
 * @module
 * Merging the dense and the sparse result lists of a hybrid query, as Upstash documents it. RRF: each result
 * scores 1/(K + rank) with K = 60 and rank counted from 1 (Cormack et al.'s definition; Upstash does not say), an
 * id in both lists adds its two scores. DBSF: each list's scores are mapped with (s − (μ − 3σ)) / (6σ) and added;
 * a list whose scores are all equal maps them to 1.
 */
import { spreadScores } from "../../lib/memory/recall/fusion.ts";

export interface Scored {
  id: string;
  score: number;
}

export type FusionAlgorithm = "RRF" | "DBSF";

const RRF_K = 60;

export function fuse(algorithm: FusionAlgorithm, lists: Scored[][], topK: number): Scored[] {
  const total = new Map<string, number>();
  for (const list of lists) {
    const mapped = algorithm === "RRF" ? list.map((_hit, rank) => 1 / (RRF_K + rank + 1)) : spreadScores(list);
    list.forEach((hit, i) => {
      total.set(hit.id, (total.get(hit.id) ?? 0) + mapped[i]!);
    });
  }
  return rankTop(
    [...total].map(([id, score]) => ({ id, score })),
    topK,
  );
}

/** Best first; equal scores by id, so that a query always answers in the same order. */
export function rankTop(hits: Scored[], topK: number): Scored[] {
  return hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(0, topK);
}
