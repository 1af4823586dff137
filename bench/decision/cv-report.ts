/**
 * @module
 * The figures the decider is judged by, side by side: cross-validated on train (mean ± sd over leave-logs-out
 * folds, as train.ts measured at the shipped operating point), the split at hand, and the gap between them. Dev
 * is read once, at the end: a precision gap over MAX_PRECISION_GAP says the choices did not travel to new logs.
 */
import type { Figures } from "./metrics.ts";

const MAX_PRECISION_GAP = 0.02;

export interface Spread {
  mean: number;
  sd: number;
  min: number;
  max: number;
}

export interface CrossValidated {
  folds: number;
  logs: number;
  precision: Spread;
  recall: Spread;
  f1: Spread;
}

export interface Gap {
  precision: number;
  recall: number;
  f1: number;
  /** Set when |CV precision − this split's| is over MAX_PRECISION_GAP. */
  warning?: string;
}

/** CV mean minus the split's figure: positive when the split does worse than cross-validation promised. */
export function gapOf(cv: CrossValidated, split: Figures, splitName: string): Gap {
  const d = (a: number, b: number): number => Number((a - b).toFixed(3));
  const gap: Gap = {
    precision: d(cv.precision.mean, split.precision),
    recall: d(cv.recall.mean, split.recall),
    f1: d(cv.f1.mean, split.f1),
  };
  if (Math.abs(gap.precision) > MAX_PRECISION_GAP) {
    gap.warning = `precision on ${splitName} differs from cross-validated train by ${Math.abs(gap.precision).toFixed(3)} (over ${MAX_PRECISION_GAP})`;
  }
  return gap;
}

/** Three table rows under a "precision recall f1" header: the split, CV on train, and the gap with its warning. */
export function cvRows(cv: CrossValidated, split: Figures, splitName: string, width: number): string[] {
  const f = (x: number): string => x.toFixed(3);
  const s = (x: Spread): string => `${f(x.mean)}±${f(x.sd)}`;
  const gap = gapOf(cv, split, splitName);
  const signed = (x: number): string => (x >= 0 ? "+" : "") + f(x);
  return [
    `${`decider, ${splitName}`.padEnd(width)} ${f(split.precision).padStart(11)} ${f(split.recall).padStart(11)} ${f(split.f1).padStart(11)} ${String(split.pairs).padStart(8)}`,
    `${`decider, train CV (${cv.folds} folds)`.padEnd(width)} ${s(cv.precision).padStart(11)} ${s(cv.recall).padStart(11)} ${s(cv.f1).padStart(11)}`,
    `${"gap (CV − split)".padEnd(width)} ${signed(gap.precision).padStart(11)} ${signed(gap.recall).padStart(11)} ${signed(gap.f1).padStart(11)}` +
      (gap.warning === undefined ? "" : `   WARNING: ${gap.warning}`),
  ];
}
