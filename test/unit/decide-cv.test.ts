import { describe, expect, it } from "vitest";
import { treeScore } from "../../lib/decide/trees.ts";
import { sigmoid } from "../../lib/decide/signals.ts";
import { binRows, binnedScorer, fitBinned } from "../../bench/decision/boost.ts";
import {
  answers,
  chooseOperatingPoint,
  countAt,
  crossCalibrate,
  fitPlatt,
  outOfFoldMargins,
  rates,
} from "../../bench/decision/cv.ts";
import { cvRows, gapOf } from "../../bench/decision/cv-report.ts";
import { CONTINUATION_CODE, type TrainRows } from "../../bench/decision/rows.ts";

/** A deterministic stream in [0, 1). */
function stream(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
}

/** Open pairs in 8 logs: feature 0 carries the label, feature 1 is noise; every tenth pair is a strong continuation. */
function syntheticRows(n = 4000): { rows: TrainRows; raw: Float64Array[] } {
  const rnd = stream(7);
  const raw: Float64Array[] = [];
  const labels: boolean[] = [];
  for (let k = 0; k < n; k++) {
    const label = rnd() < 0.2;
    raw.push(Float64Array.of((label ? 1 : 0) + rnd() * 1.5, rnd()));
    labels.push(label);
  }
  const rows: TrainRows = {
    features: ["signal", "noise"],
    binned: binRows(raw),
    labels,
    log: Int32Array.from(labels, (_, k) => k % 8),
    continuation: Uint8Array.from(labels, (_, k) => (k % 10 === 0 ? CONTINUATION_CODE.strong : CONTINUATION_CODE.none)),
    logPace: [1, 2, 3, 4, 5, 6, 7, 8],
    rules: Array.from({ length: 8 }, () => ({
      yesTrue: 10,
      yesFalse: 1,
      positives: 10 + labels.filter(Boolean).length / 8,
    })),
  };
  return { rows, raw };
}

describe("the decision bench's cross-validation", () => {
  it("scores binned rows exactly as the Worker scores their values", () => {
    const { rows, raw } = syntheticRows(800);
    const trees = fitBinned(rows.binned, rows.labels, null, { trees: 10, learningRate: 0.3 });
    const score = binnedScorer(trees, rows.binned);
    for (const [k, r] of raw.entries()) expect(score(k)).toBeCloseTo(treeScore(trees, r), 12);
  });

  it("Platt scaling recovers a known slope and intercept", () => {
    const rnd = stream(3);
    const margins = Array.from({ length: 20000 }, () => rnd() * 8 - 4);
    const labels = margins.map((m) => rnd() < sigmoid(0.5 * m - 1));
    const platt = fitPlatt(margins, labels, Number.POSITIVE_INFINITY);
    expect(platt.slope).toBeCloseTo(0.5, 1);
    expect(platt.intercept).toBeCloseTo(-1, 1);
  });

  it("chooses the operating point with the most recall that keeps the target precision out of fold", () => {
    const { rows } = syntheticRows();
    const scores = crossCalibrate(rows, outOfFoldMargins(rows, 4, { trees: 20, learningRate: 0.3 }), 4, 5);
    for (const s of scores) {
      expect(s).toBeGreaterThan(0);
      expect(s).toBeLessThan(1);
    }
    const point = chooseOperatingPoint(rows, scores, 0.8);
    const at = rates(countAt(rows, scores, point, () => true));
    expect(at.precision).toBeGreaterThanOrEqual(0.8);
    expect(at.recall).toBeCloseTo(point.recall, 9);
    // Any lower threshold with the same continuation floor misses the target.
    const lower = rates(countAt(rows, scores, { ...point, threshold: point.threshold - 0.02 }, () => true));
    expect(lower.recall >= at.recall && lower.precision < 0.8).toBe(true);
  });

  it("with the folds' spread guarded, the point keeps the folds' mean precision one standard error above the target", () => {
    const { rows } = syntheticRows();
    const scores = crossCalibrate(rows, outOfFoldMargins(rows, 4, { trees: 20, learningRate: 0.3 }), 4, 5);
    const pooled = chooseOperatingPoint(rows, scores, 0.8);
    const guarded = chooseOperatingPoint(rows, scores, 0.8, 0, { folds: 8, standardErrors: 1 });
    const perFold = Array.from(
      { length: 8 },
      (_, fold) => rates(countAt(rows, scores, guarded, (log) => log % 8 === fold)).precision,
    );
    const mean = perFold.reduce((a, b) => a + b, 0) / 8;
    const sd = Math.sqrt(perFold.reduce((a, b) => a + (b - mean) ** 2, 0) / 7);
    expect(mean - sd / Math.sqrt(8)).toBeGreaterThanOrEqual(0.8);
    expect(guarded.recall).toBeLessThanOrEqual(pooled.recall);
    expect(guarded.precision).toBeCloseTo(mean - sd / Math.sqrt(8), 9);
  });

  it("answers a strong continuation only from its floor, and anything from the respond threshold", () => {
    const point = { threshold: 0.6, continuationFloor: 0.2 };
    expect(answers(point, 0.3, CONTINUATION_CODE.strong)).toBe(true);
    expect(answers(point, 0.1, CONTINUATION_CODE.strong)).toBe(false);
    expect(answers(point, 0.3, CONTINUATION_CODE.weak)).toBe(false);
    expect(answers(point, 0.6, CONTINUATION_CODE.none)).toBe(true);
  });
});

describe("the bench's CV beside dev", () => {
  const cv = {
    folds: 8,
    logs: 153,
    precision: { mean: 0.87, sd: 0.01, min: 0.85, max: 0.89 },
    recall: { mean: 0.8, sd: 0.01, min: 0.78, max: 0.82 },
    f1: { mean: 0.83, sd: 0.01, min: 0.82, max: 0.85 },
  };

  it("warns when dev's precision is more than 0.02 from cross-validation's, either way", () => {
    expect(gapOf(cv, { precision: 0.86, recall: 0.79, f1: 0.82, pairs: 10 }, "dev").warning).toBeUndefined();
    expect(gapOf(cv, { precision: 0.84, recall: 0.79, f1: 0.82, pairs: 10 }, "dev").warning).toMatch(
      /precision on dev/,
    );
    expect(gapOf(cv, { precision: 0.9, recall: 0.79, f1: 0.82, pairs: 10 }, "dev").warning).toMatch(/0\.030/);
  });

  it("prints dev, CV and the gap as three rows, the warning on the gap's", () => {
    const lines = cvRows(cv, { precision: 0.8, recall: 0.79, f1: 0.8, pairs: 10 }, "dev", 28);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^decider, dev/);
    expect(lines[1]).toMatch(/train CV \(8 folds\).*0\.870±0\.010/);
    expect(lines[2]).toMatch(/gap.*\+0\.070.*WARNING/);
  });
});
