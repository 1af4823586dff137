/**
 * @module
 * Gradient-boosted decision trees (logistic loss, fixed depth, histogram splits) for the decider's stage 2.
 * Deterministic: no row or feature sampling, ties broken by the lowest feature and bin.
 */
import type { BoostedTrees } from "../../lib/decide/trees.ts";
import { TREE_DEPTH } from "../../lib/decide/trees.ts";

const MAX_BINS = 32;
const L2 = 1;
const MIN_CHILD_HESSIAN = 5;

export interface BoostOptions {
  trees: number;
  learningRate: number;
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

export function fitBoostedTrees(rows: readonly ArrayLike<number>[], labels: readonly boolean[], opts: BoostOptions): BoostedTrees {
  const n = rows.length;
  const d = rows[0]?.length ?? 0;
  const edges = Array.from({ length: d }, (_, f) => binEdges(rows, f));
  const bins = new Uint8Array(n * d);
  for (let r = 0; r < n; r++) for (let f = 0; f < d; f++) bins[r * d + f] = binOf(edges[f]!, rows[r]![f]!);
  const positives = labels.filter(Boolean).length;
  const base = Math.log(positives / (n - positives));
  const margin = new Float64Array(n).fill(base);
  const grad = new Float64Array(n);
  const hess = new Float64Array(n);
  const node = new Uint16Array(n);
  const internal = 2 ** TREE_DEPTH - 1;
  const model: BoostedTrees = { base, features: [], thresholds: [], leaves: [] };
  for (let t = 0; t < opts.trees; t++) {
    for (let r = 0; r < n; r++) {
      const p = 1 / (1 + Math.exp(-margin[r]!));
      grad[r] = p - (labels[r] ? 1 : 0);
      hess[r] = p * (1 - p);
    }
    node.fill(0);
    const treeFeatures = new Array<number>(internal).fill(0);
    const treeThresholds = new Array<number>(internal).fill(Number.MAX_VALUE);
    for (let depth = 0; depth < TREE_DEPTH; depth++) {
      const first = 2 ** depth - 1;
      const width = 2 ** depth;
      const hist = new Float64Array(width * d * MAX_BINS * 2);
      for (let r = 0; r < n; r++) {
        const at = (node[r]! - first) * d * MAX_BINS * 2;
        const g = grad[r]!;
        const h = hess[r]!;
        for (let f = 0; f < d; f++) {
          const cell = at + (f * MAX_BINS + bins[r * d + f]!) * 2;
          hist[cell]! += g;
          hist[cell + 1]! += h;
        }
      }
      for (let k = 0; k < width; k++) {
        let best = { gain: 0, feature: 0, bin: -1 };
        for (let f = 0; f < d; f++) {
          const at = (k * d + f) * MAX_BINS * 2;
          let G = 0;
          let H = 0;
          for (let b = 0; b < MAX_BINS; b++) {
            G += hist[at + b * 2]!;
            H += hist[at + b * 2 + 1]!;
          }
          let gl = 0;
          let hl = 0;
          for (let b = 0; b < edges[f]!.length; b++) {
            gl += hist[at + b * 2]!;
            hl += hist[at + b * 2 + 1]!;
            const gr = G - gl;
            const hr = H - hl;
            if (hl < MIN_CHILD_HESSIAN || hr < MIN_CHILD_HESSIAN) continue;
            const gain = (gl * gl) / (hl + L2) + (gr * gr) / (hr + L2) - (G * G) / (H + L2);
            if (gain > best.gain) best = { gain, feature: f, bin: b };
          }
        }
        if (best.bin >= 0) {
          treeFeatures[first + k] = best.feature;
          treeThresholds[first + k] = edges[best.feature]![best.bin]!;
        }
      }
      for (let r = 0; r < n; r++) {
        const i = node[r]!;
        const goRight = rows[r]![treeFeatures[i]!]! > treeThresholds[i]!;
        node[r] = 2 * i + (goRight ? 2 : 1);
      }
    }
    const leafG = new Float64Array(internal + 1);
    const leafH = new Float64Array(internal + 1);
    for (let r = 0; r < n; r++) {
      leafG[node[r]! - internal]! += grad[r]!;
      leafH[node[r]! - internal]! += hess[r]!;
    }
    const leaves = Array.from(leafG, (g, k) => (-g / (leafH[k]! + L2)) * opts.learningRate);
    for (let r = 0; r < n; r++) margin[r]! += leaves[node[r]! - internal]!;
    model.features.push(...treeFeatures);
    model.thresholds.push(...treeThresholds);
    model.leaves.push(...leaves);
  }
  return model;
}
