/**
 * @module
 * Scoring with boosted decision trees of fixed depth, stored flat: per tree, its internal nodes in heap order
 * (feature index and threshold; go right when the value is above it) and its leaves left to right.
 */

export const TREE_DEPTH = 3;
const INTERNAL = 2 ** TREE_DEPTH - 1;
const LEAVES = 2 ** TREE_DEPTH;

export interface BoostedTrees {
  /** Log-odds before any tree. */
  base: number;
  features: number[];
  thresholds: number[];
  leaves: number[];
}

/** Log-odds of the trees for one feature vector. */
export function treeScore(
  model: {
    readonly base: number;
    readonly features: readonly number[];
    readonly thresholds: readonly number[];
    readonly leaves: readonly number[];
  },
  x: ArrayLike<number>,
): number {
  let sum = model.base;
  const trees = model.leaves.length / LEAVES;
  for (let t = 0; t < trees; t++) {
    let i = 0;
    while (i < INTERNAL) {
      const at = t * INTERNAL + i;
      i = 2 * i + (x[model.features[at]!]! > model.thresholds[at]! ? 2 : 1);
    }
    sum += model.leaves[t * LEAVES + i - INTERNAL]!;
  }
  return sum;
}
