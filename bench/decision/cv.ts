/**
 * @module
 * Leave-logs-out cross-validation of the learned tier over TrainRows: every open pair is scored by trees fitted
 * on the other folds' logs, calibrated by a Platt fit on the other folds' out-of-fold scores (so a score is a
 * probability on channels nothing was fitted on), and the operating point (the respond threshold and the score
 * the continuation path needs) is chosen on those pooled scores for a target precision, with as much recall as it
 * then allows. The per-fold figures at that point, the rules and the continuation path included, are what
 * `npm run bench:decision` prints beside dev.
 */
import { sigmoid } from "../../lib/decide/signals.ts";
import { type BoostOptions, binnedScorer, fitBinned } from "./boost.ts";
import { CONTINUATION_CODE, type TrainRows } from "./rows.ts";

/** sigmoid(slope · clamp(log-odds, ±clip) + intercept): Platt scaling of the trees' log-odds, clipped first. */
export interface Platt {
  clip: number;
  slope: number;
  intercept: number;
}

function calibrated(platt: Platt, margin: number): number {
  return sigmoid(platt.slope * Math.max(-platt.clip, Math.min(platt.clip, margin)) + platt.intercept);
}

export interface OperatingPoint {
  threshold: number;
  /** A strong continuation is answered from this calibrated score (Infinity: the path never answers alone). */
  continuationFloor: number;
}

/** Tallies at an operating point: true and false "yes", and every real reply. */
interface Counts {
  tp: number;
  fp: number;
  positives: number;
}

/** The continuation floors tried: from "every strong continuation" to "never without the model". */
const CONTINUATION_FLOORS = [0, 0.05, 0.1, 0.2, 0.3, 0.4, Number.POSITIVE_INFINITY] as const;

export function foldOfLog(log: number, folds: number): number {
  return log % folds;
}

/** Raw log-odds of every open pair from trees that never saw its log. */
export function outOfFoldMargins(
  rows: TrainRows,
  folds: number,
  boost: BoostOptions,
  features?: readonly number[],
  perFold?: readonly TrainRows[],
): Float64Array {
  const margins = new Float64Array(rows.labels.length);
  for (let fold = 0; fold < folds; fold++) {
    const fit: number[] = [];
    const held: number[] = [];
    rows.log.forEach((log, k) => {
      (foldOfLog(log, folds) === fold ? held : fit).push(k);
    });
    // With `perFold`, each fold's rows come from a stage 1 fitted without its logs (stage1.ts).
    const binned = perFold?.[fold]?.binned ?? rows.binned;
    const score = binnedScorer(fitBinned(binned, rows.labels, Int32Array.from(fit), boost, features), binned);
    for (const k of held) margins[k] = score(k);
  }
  return margins;
}

/** Log-loss of the labels under sigmoid(a·margin + b), over the pairs `use` keeps. */
function plattLoss(
  margins: ArrayLike<number>,
  labels: readonly boolean[],
  use: (k: number) => boolean,
  a: number,
  b: number,
): number {
  let loss = 0;
  for (let k = 0; k < margins.length; k++) {
    if (!use(k)) continue;
    const z = a * margins[k]! + b;
    // log(1 + e^z) - y·z, computed without overflow.
    loss += (z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z))) - (labels[k] ? z : 0);
  }
  return loss;
}

/**
 * Platt scaling: the logistic fit of the labels on the raw log-odds, over the pairs `use` keeps. Newton's method with
 * the step halved until the loss falls: the trees' margins reach far into the tails, where a full step overshoots.
 */
export function fitPlatt(
  raw: ArrayLike<number>,
  labels: readonly boolean[],
  clip: number,
  use: (k: number) => boolean = () => true,
): Platt {
  const margins = Float64Array.from(raw, (x) => Math.max(-clip, Math.min(clip, x)));
  let a = 1;
  let b = 0;
  let loss = plattLoss(margins, labels, use, a, b);
  for (let iter = 0; iter < 50; iter++) {
    let ga = 0,
      gb = 0,
      haa = 0,
      hab = 0,
      hbb = 0;
    for (let k = 0; k < margins.length; k++) {
      if (!use(k)) continue;
      const x = margins[k]!;
      const p = sigmoid(a * x + b);
      const g = p - (labels[k] ? 1 : 0);
      const w = Math.max(p * (1 - p), 1e-12);
      ga += g * x;
      gb += g;
      haa += w * x * x;
      hab += w * x;
      hbb += w;
    }
    const det = haa * hbb - hab * hab;
    if (det <= 0) break;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    let step = 1;
    let next = plattLoss(margins, labels, use, a - da, b - db);
    while (next > loss && step > 1e-6) {
      step /= 2;
      next = plattLoss(margins, labels, use, a - step * da, b - step * db);
    }
    if (next > loss) break;
    a -= step * da;
    b -= step * db;
    const done = loss - next < 1e-9 * Math.max(1, loss);
    loss = next;
    if (done) break;
  }
  return { clip, slope: a, intercept: b };
}

/** Calibrated out-of-fold scores: each fold's margins through a Platt fit on the other folds' margins only. */
export function crossCalibrate(rows: TrainRows, margins: Float64Array, folds: number, clip: number): Float64Array {
  const scores = new Float64Array(margins.length);
  for (let fold = 0; fold < folds; fold++) {
    const platt = fitPlatt(margins, rows.labels, clip, (k) => foldOfLog(rows.log[k]!, folds) !== fold);
    for (let k = 0; k < margins.length; k++) {
      if (foldOfLog(rows.log[k]!, folds) === fold) scores[k] = calibrated(platt, margins[k]!);
    }
  }
  return scores;
}

/** The decider's "yes" on an open pair at an operating point (as lib/decide/decide.ts decides without the judge). */
export function answers(point: OperatingPoint, score: number, continues: number): boolean {
  return score >= point.threshold || (continues === CONTINUATION_CODE.strong && score >= point.continuationFloor);
}

/** Tallies at `point` over the logs `inLog` keeps, the rules' own answers included. */
export function countAt(
  rows: TrainRows,
  scores: ArrayLike<number>,
  point: OperatingPoint,
  inLog: (log: number) => boolean,
): Counts {
  const c: Counts = { tp: 0, fp: 0, positives: 0 };
  rows.rules.forEach((r, log) => {
    if (!inLog(log)) return;
    c.tp += r.yesTrue;
    c.fp += r.yesFalse;
    c.positives += r.positives;
  });
  for (let k = 0; k < rows.labels.length; k++) {
    if (!inLog(rows.log[k]!) || !answers(point, scores[k]!, rows.continuation[k]!)) continue;
    if (rows.labels[k]) c.tp++;
    else c.fp++;
  }
  return c;
}

export function rates(c: Counts): { precision: number; recall: number; f1: number } {
  const precision = c.tp / Math.max(1, c.tp + c.fp);
  const recall = c.tp / Math.max(1, c.positives);
  return { precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall) };
}

/**
 * How sure the target must be: with `standardErrors` k > 0, the mean of the folds' precisions less k standard errors
 * of that mean (sd/√folds) must reach it, so that the point keeps the target on logs like the train ones despite
 * their fold-to-fold spread; with k = 0, the pooled precision must reach it.
 */
interface PrecisionGuard {
  folds: number;
  standardErrors: number;
}

const POOLED: PrecisionGuard = { folds: 1, standardErrors: 0 };

/** The precision an operating point is held to under `guard`, from per-fold true and false "yes". */
function guardedPrecision(tp: Float64Array, fp: Float64Array, guard: PrecisionGuard): number {
  const sum = (xs: Float64Array): number => xs.reduce((a, b) => a + b, 0);
  if (guard.standardErrors === 0) return sum(tp) / Math.max(1, sum(tp) + sum(fp));
  const { mean, sd } = meanSd(Array.from(tp, (t, f) => t / Math.max(1, t + fp[f]!)));
  return mean - (guard.standardErrors * sd) / Math.sqrt(tp.length);
}

/** Mean and sample standard deviation. */
export function meanSd(xs: readonly number[]): { mean: number; sd: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return { mean, sd: Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, xs.length - 1)) };
}

/** For each continuation floor, the lowest respond threshold whose precision under `guard` reaches `target`. */
export function operatingPoints(
  rows: TrainRows,
  scores: ArrayLike<number>,
  target: number,
  guard = POOLED,
): (OperatingPoint & { recall: number; precision: number })[] {
  const all = countAt(rows, scores, { threshold: Infinity, continuationFloor: Infinity }, () => true);
  const order = Array.from(scores, (_, k) => k).sort((x, y) => scores[y]! - scores[x]!);
  const foldOf = (log: number): number => foldOfLog(log, guard.folds);
  return CONTINUATION_FLOORS.map((floor) => {
    let best = { threshold: 1, continuationFloor: floor as number, recall: -1, precision: 0 };
    const tp = new Float64Array(guard.folds);
    const fp = new Float64Array(guard.folds);
    rows.rules.forEach((r, log) => {
      tp[foldOf(log)]! += r.yesTrue;
      fp[foldOf(log)]! += r.yesFalse;
    });
    let truePositives = all.tp;
    const answer = (k: number): void => {
      if (rows.labels[k]) {
        tp[foldOf(rows.log[k]!)]!++;
        truePositives++;
      } else fp[foldOf(rows.log[k]!)]!++;
    };
    const byPath = (k: number): boolean => rows.continuation[k] === CONTINUATION_CODE.strong && scores[k]! >= floor;
    for (let k = 0; k < scores.length; k++) if (byPath(k)) answer(k);
    for (let j = 0; j < order.length; j++) {
      const k = order[j]!;
      if (!byPath(k)) answer(k);
      const next = order[j + 1];
      if (next !== undefined && scores[next] === scores[k]) continue;
      const recall = truePositives / all.positives;
      if (recall <= best.recall) continue;
      const precision = guardedPrecision(tp, fp, guard);
      if (precision >= target) best = { threshold: scores[k]!, continuationFloor: floor, recall, precision };
    }
    return best;
  });
}

/**
 * The operating point at the target precision: the lowest continuation floor (the path as designed answers the
 * most) whose recall is within `slack` of the best floor's. With a slack of one standard error across folds, a floor
 * is raised only when train shows it pays by more than the folds' own spread (the one-standard-error rule).
 */
export function chooseOperatingPoint(
  rows: TrainRows,
  scores: ArrayLike<number>,
  target: number,
  slack = 0,
  guard = POOLED,
): OperatingPoint & { recall: number; precision: number } {
  const points = operatingPoints(rows, scores, target, guard);
  const bestRecall = Math.max(...points.map((p) => p.recall));
  return points.find((p) => p.recall >= bestRecall - slack)!;
}
