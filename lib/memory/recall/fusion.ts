/**
 * @module
 * Recall's own fusion of a hybrid index's two halves (Upstash's "custom reranking": the dense and the sparse part
 * asked apart, in one request). DBSF as Upstash defines it, each list's scores mapped by its own spread,
 * (s − (μ − 3σ)) / 6σ (a list whose scores are all equal maps them to 1), then added per passage, except that the
 * dense list counts `denseWeight` times: Upstash's own fusion adds the two with equal weight and takes no weight.
 * Chosen on the train split only (bench/recall/tune.ts; bench/recall/README.md "Choosing on train").
 */

export interface Scored {
  id: string;
  score: number;
}

/** How recall fuses: the dense list's share, and how deep each list is asked. */
export interface WeightedFusion {
  denseWeight: number;
  candidates: number;
}

/** Best first, equal scores by id; each passage once, as the first list that has it gives it, with its fused score. */
export function fuseWeighted<T extends Scored>(dense: readonly T[], sparse: readonly T[], denseWeight: number): T[] {
  const fused = new Map<string, T>();
  const add = (list: readonly T[], weight: number) => {
    const mapped = spreadScores(list);
    list.forEach((hit, i) => {
      const earlier = fused.get(hit.id);
      fused.set(hit.id, { ...(earlier ?? hit), score: (earlier?.score ?? 0) + weight * mapped[i]! });
    });
  };
  add(dense, denseWeight);
  add(sparse, 1);
  return [...fused.values()].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** DBSF's mapping of one list (the Vector stand-in's fusion maps with it too). */
export function spreadScores(list: readonly Scored[]): number[] {
  const mean = list.reduce((sum, hit) => sum + hit.score, 0) / Math.max(1, list.length);
  const sd = Math.sqrt(list.reduce((sum, hit) => sum + (hit.score - mean) ** 2, 0) / Math.max(1, list.length));
  return list.map((hit) => (sd === 0 ? 1 : (hit.score - (mean - 3 * sd)) / (6 * sd)));
}
