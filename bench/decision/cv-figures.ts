/**
 * @module
 * The cross-validated figures train.ts writes beside the weights at the chosen operating point: each fold's
 * precision, recall and F1 as mean ± sd (min–max), and the busier and the quieter half of the logs.
 */
import { type OperatingPoint, countAt, foldOfLog, meanSd, rates } from "./cv.ts";
import type { Spread } from "./cv-report.ts";
import type { TrainRows } from "./rows.ts";

export function spread(xs: readonly number[]): Spread {
  const { mean, sd } = meanSd(xs);
  const r = (x: number): number => Number(x.toFixed(3));
  return { mean: r(mean), sd: r(sd), min: r(Math.min(...xs)), max: r(Math.max(...xs)) };
}

/** Per-fold precision, recall and F1 at `point`, as mean ± sd (min–max). */
export function foldSpread(rows: TrainRows, scores: ArrayLike<number>, point: OperatingPoint, folds: number) {
  const per = Array.from({ length: folds }, (_, fold) =>
    rates(countAt(rows, scores, point, (log) => foldOfLog(log, folds) === fold)),
  );
  return {
    folds,
    logs: rows.rules.length,
    precision: spread(per.map((f) => f.precision)),
    recall: spread(per.map((f) => f.recall)),
    f1: spread(per.map((f) => f.f1)),
  };
}

/** Precision and recall at `point` in the busier and the quieter half of the logs (by messages per minute). */
export function busyQuiet(rows: TrainRows, scores: ArrayLike<number>, point: OperatingPoint) {
  const median = [...rows.logPace].sort((a, b) => a - b)[Math.floor(rows.logPace.length / 2)]!;
  const half = (busy: boolean) => {
    const r = rates(countAt(rows, scores, point, (log) => rows.logPace[log]! >= median === busy));
    return { precision: Number(r.precision.toFixed(3)), recall: Number(r.recall.toFixed(3)) };
  };
  return { medianMessagesPerMinute: Number(median.toFixed(2)), busy: half(true), quiet: half(false) };
}
