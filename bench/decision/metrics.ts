/**
 * @module
 * Precision, recall and F1 of "respond" over decision pairs.
 */

export interface Tally {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  pairs: number;
}

export interface Figures {
  precision: number;
  recall: number;
  f1: number;
  pairs: number;
}

export function emptyTally(): Tally {
  return { truePositives: 0, falsePositives: 0, falseNegatives: 0, pairs: 0 };
}

export function count(tally: Tally, predicted: boolean, truth: boolean): void {
  tally.pairs++;
  if (predicted && truth) tally.truePositives++;
  else if (predicted) tally.falsePositives++;
  else if (truth) tally.falseNegatives++;
}

export function figures(t: Tally): Figures {
  const precision = t.truePositives / Math.max(1, t.truePositives + t.falsePositives);
  const recall = t.truePositives / Math.max(1, t.truePositives + t.falseNegatives);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  const round = (x: number): number => Math.round(x * 1000) / 1000;
  return { precision: round(precision), recall: round(recall), f1: round(f1), pairs: t.pairs };
}
