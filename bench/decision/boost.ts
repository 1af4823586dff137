/**
 * @module
 * Gradient-boosted decision trees (logistic loss, fixed depth, histogram splits) for the decider's stage 2.
 * Deterministic: no row or feature sampling, ties broken by the lowest feature and bin. The rows are binned once
 * (`binRows`) and every fit reads the bins: cross-validation and ablation fit many models over subsets of the same
 * rows (`fitBinned` with a row subset and the features it may split on).
 */
import type { BoostedTrees } from "../../lib/decide/trees.ts";
import { TREE_DEPTH } from "../../lib/decide/trees.ts";

const MAX_BINS = 32;
const L2 = 1;
const MIN_CHILD_HESSIAN = 5;
const INTERNAL = 2 ** TREE_DEPTH - 1;

export interface BoostOptions {
  trees: number;
  learningRate: number;
}

/** Rows as bin numbers, row-major, with each feature's split points. */
export interface BinnedRows {
  n: number;
  d: number;
  edges: number[][];
  bins: Uint8Array;
}

/**
 * Split points per feature: up to MAX_BINS - 1 quantiles, each moved halfway to the next distinct value so
 * that a threshold rounded for the weights file still sends every training value the same way.
 */
function binEdges(rows: readonly ArrayLike<number>[], feature: number): number[] {
  const values = Float64Array.from(rows, (r) => r[feature]!).sort();
  const edges: number[] = [];
  let from = 0;
  for (let b = 1; b < MAX_BINS; b++) {
    const v = values[Math.floor((b * (values.length - 1)) / MAX_BINS)]!;
    if (edges.length > 0 && v < edges[edges.length - 1]!) continue;
    while (from < values.length && values[from]! <= v) from++;
    if (from === values.length) break;
    edges.push((v + values[from]!) / 2);
  }
  return edges;
}

function binOf(edges: number[], x: number): number {
  let b = 0;
  while (b < edges.length && x > edges[b]!) b++;
  return b;
}

export function binRows(rows: readonly ArrayLike<number>[]): BinnedRows {
  const n = rows.length;
  const d = rows[0]?.length ?? 0;
  const edges = Array.from({ length: d }, (_, f) => binEdges(rows, f));
  const bins = new Uint8Array(n * d);
  for (let r = 0; r < n; r++) for (let f = 0; f < d; f++) bins[r * d + f] = binOf(edges[f]!, rows[r]![f]!);
  return { n, d, edges, bins };
}

/** Best split of one node's histogram over the allowed features: gain, feature, bin (-1 when none). */
function bestSplit(
  hist: Float64Array,
  at: number,
  edges: number[][],
  features: readonly number[],
): { feature: number; bin: number } {
  let best = { gain: 0, feature: 0, bin: -1 };
  for (const f of features) {
    const base = at + f * MAX_BINS * 2;
    let G = 0;
    let H = 0;
    for (let b = 0; b < MAX_BINS; b++) {
      G += hist[base + b * 2]!;
      H += hist[base + b * 2 + 1]!;
    }
    let gl = 0;
    let hl = 0;
    for (let b = 0; b < edges[f]!.length; b++) {
      gl += hist[base + b * 2]!;
      hl += hist[base + b * 2 + 1]!;
      const gr = G - gl;
      const hr = H - hl;
      if (hl < MIN_CHILD_HESSIAN || hr < MIN_CHILD_HESSIAN) continue;
      const gain = (gl * gl) / (hl + L2) + (gr * gr) / (hr + L2) - (G * G) / (H + L2);
      if (gain > best.gain) best = { gain, feature: f, bin: b };
    }
  }
  return best;
}

/**
 * Fits trees on the rows in `subset` (all when null), splitting only on `features` (all when omitted). A child's
 * histogram is its parent's minus its sibling's, so only left children are counted below the root.
 */
export function fitBinned(
  data: BinnedRows,
  allLabels: readonly boolean[],
  subset: Int32Array | null,
  opts: BoostOptions,
  features: readonly number[] = Array.from({ length: data.d }, (_, f) => f),
): BoostedTrees {
  const { d, edges, bins } = data;
  const index = subset ?? Int32Array.from({ length: data.n }, (_, r) => r);
  const n = index.length;
  const labels = Uint8Array.from(index, (r) => (allLabels[r] ? 1 : 0));
  const positives = labels.reduce((a, b) => a + b, 0);
  const base = Math.log(positives / (n - positives));
  const margin = new Float64Array(n).fill(base);
  const grad = new Float64Array(n);
  const hess = new Float64Array(n);
  const node = new Uint16Array(n);
  const cells = d * MAX_BINS * 2;
  const model: BoostedTrees = { base, features: [], thresholds: [], leaves: [] };
  for (let t = 0; t < opts.trees; t++) {
    for (let k = 0; k < n; k++) {
      const p = 1 / (1 + Math.exp(-margin[k]!));
      grad[k] = p - labels[k]!;
      hess[k] = p * (1 - p);
    }
    node.fill(0);
    const treeFeatures = new Array<number>(INTERNAL).fill(0);
    const treeBins = new Array<number>(INTERNAL).fill(MAX_BINS);
    let parents = new Float64Array(cells);
    for (let depth = 0; depth < TREE_DEPTH; depth++) {
      const first = 2 ** depth - 1;
      const width = 2 ** depth;
      const hist = new Float64Array(width * cells);
      for (let k = 0; k < n; k++) {
        const i = node[k]! - first;
        if (depth > 0 && i % 2 === 1) continue;
        const at = i * cells;
        const g = grad[k]!;
        const h = hess[k]!;
        const row = index[k]! * d;
        for (const f of features) {
          const cell = at + (f * MAX_BINS + bins[row + f]!) * 2;
          hist[cell]! += g;
          hist[cell + 1]! += h;
        }
      }
      if (depth > 0) {
        for (let i = 1; i < width; i += 2) {
          const parent = ((i - 1) / 2) * cells;
          for (let c = 0; c < cells; c++) hist[i * cells + c] = parents[parent + c]! - hist[(i - 1) * cells + c]!;
        }
      }
      for (let i = 0; i < width; i++) {
        const split = bestSplit(hist, i * cells, edges, features);
        if (split.bin >= 0) {
          treeFeatures[first + i] = split.feature;
          treeBins[first + i] = split.bin;
        }
      }
      for (let k = 0; k < n; k++) {
        const i = node[k]!;
        node[k] = 2 * i + (bins[index[k]! * d + treeFeatures[i]!]! > treeBins[i]! ? 2 : 1);
      }
      parents = hist;
    }
    const leafG = new Float64Array(INTERNAL + 1);
    const leafH = new Float64Array(INTERNAL + 1);
    for (let k = 0; k < n; k++) {
      leafG[node[k]! - INTERNAL]! += grad[k]!;
      leafH[node[k]! - INTERNAL]! += hess[k]!;
    }
    const leaves = Array.from(leafG, (g, k) => (-g / (leafH[k]! + L2)) * opts.learningRate);
    for (let k = 0; k < n; k++) margin[k]! += leaves[node[k]! - INTERNAL]!;
    model.features.push(...treeFeatures);
    model.thresholds.push(
      ...treeBins.map((b, i) =>
        b < edges[treeFeatures[i]!]!.length ? edges[treeFeatures[i]!]![b]! : Number.MAX_VALUE,
      ),
    );
    model.leaves.push(...leaves);
  }
  return model;
}

/** Log-odds of the trees for binned row `k` (what treeScore gives for its values: a threshold is one of the edges). */
export function binnedScorer(model: BoostedTrees, data: BinnedRows): (k: number) => number {
  const { d, edges, bins } = data;
  const nodeBins = model.thresholds.map((t, at) => {
    const b = edges[model.features[at]!]!.indexOf(t);
    return b < 0 ? MAX_BINS : b;
  });
  const trees = model.leaves.length / (INTERNAL + 1);
  return (k) => {
    let sum = model.base;
    const row = k * d;
    for (let t = 0; t < trees; t++) {
      let i = 0;
      while (i < INTERNAL) {
        const at = t * INTERNAL + i;
        i = 2 * i + (bins[row + model.features[at]!]! > nodeBins[at]! ? 2 : 1);
      }
      sum += model.leaves[t * (INTERNAL + 1) + i - INTERNAL]!;
    }
    return sum;
  };
}
