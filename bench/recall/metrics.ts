/**
 * @module
 * Ranking figures: recall@1, recall@5 and MRR (over the top 10 returned; a miss counts 0), and percentiles.
 */

export interface RankTally {
  queries: number;
  at1: number;
  at5: number;
  reciprocalSum: number;
}

export interface RankFigures {
  recall_at_1: number;
  recall_at_5: number;
  mrr: number;
}

export const emptyRankTally = (): RankTally => ({ queries: 0, at1: 0, at5: 0, reciprocalSum: 0 });

/** `rank` counts from 1; 0 when the right passage was not returned. */
export function addRank(tally: RankTally, rank: number): void {
  tally.queries++;
  if (rank === 1) tally.at1++;
  if (rank >= 1 && rank <= 5) tally.at5++;
  if (rank >= 1) tally.reciprocalSum += 1 / rank;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

export function rankFigures(t: RankTally): RankFigures {
  const n = Math.max(1, t.queries);
  return { recall_at_1: round3(t.at1 / n), recall_at_5: round3(t.at5 / n), mrr: round3(t.reciprocalSum / n) };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
