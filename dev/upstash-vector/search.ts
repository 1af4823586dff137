/**
 * @module
 * Exact search over one namespace snapshot: dense similarity normalised to [0, 1] as Upstash does (COSINE
 * (1 + cos)/2, EUCLIDEAN 1/(1 + d²), DOT_PRODUCT (1 + dot)/2), and sparse inner products over the matching indices
 * only, optionally weighted by IDF. IDF uses ln(1 + (N − n + 0.5)/(n + 0.5)) (the client's documentation, Lucene's
 * BM25) rather than the docs' ln((N − n + 0.5)/(n + 0.5)): the latter goes negative for a word in more than half of
 * the passages, so in a small namespace a shared word would push the right passage down. N counts the namespace's
 * sparse vectors, n those with that index.
 */
import type { SparseVector } from "./bm25.ts";
import { matchesFilter } from "./filter-match.ts";
import type { FilterNode } from "./filter-parse.ts";
import { rankTop, type Scored } from "./fusion.ts";
import type { IndexConfig } from "./index-config.ts";
import type { NamespaceSnapshot } from "./store.ts";

interface Postings {
  rows: number[];
  values: number[];
}

interface Prepared {
  norms: number[];
  postings: Map<number, Postings>;
  sparseCount: number;
}

const prepared = new WeakMap<NamespaceSnapshot, Prepared>();

function prepare(snapshot: NamespaceSnapshot): Prepared {
  let ready = prepared.get(snapshot);
  if (ready) return ready;
  const postings = new Map<number, Postings>();
  let sparseCount = 0;
  snapshot.vectors.forEach((v, row) => {
    if (!v.sparseVector) return;
    sparseCount++;
    v.sparseVector.indices.forEach((index, i) => {
      const list = postings.get(index) ?? { rows: [], values: [] };
      postings.set(index, list);
      list.rows.push(row);
      list.values.push(v.sparseVector!.values[i]!);
    });
  });
  const norms = snapshot.vectors.map((v) => (v.vector ? Math.hypot(...v.vector) : 0));
  ready = { norms, postings, sparseCount };
  prepared.set(snapshot, ready);
  return ready;
}

/** Rows the filter lets through. */
export function allowedRows(snapshot: NamespaceSnapshot, filter: FilterNode): (row: number) => boolean {
  if (filter.kind === "all") return () => true;
  const allowed = snapshot.vectors.map((v) => matchesFilter(filter, v.metadata));
  return (row) => allowed[row]!;
}

export function denseSearch(
  snapshot: NamespaceSnapshot,
  config: IndexConfig,
  query: number[],
  allowed: (row: number) => boolean,
  topK: number,
): Scored[] {
  const { norms } = prepare(snapshot);
  const queryNorm = Math.hypot(...query);
  const hits: Scored[] = [];
  snapshot.vectors.forEach((v, row) => {
    if (!v.vector || !allowed(row)) return;
    hits.push({ id: v.id, score: similarity(config, query, queryNorm, v.vector, norms[row]!) });
  });
  return rankTop(hits, topK);
}

function similarity(config: IndexConfig, q: number[], qNorm: number, v: number[], vNorm: number): number {
  if (config.similarity === "EUCLIDEAN") {
    let squared = 0;
    for (let i = 0; i < q.length; i++) squared += (q[i]! - v[i]!) ** 2;
    return 1 / (1 + squared);
  }
  let dot = 0;
  for (let i = 0; i < q.length; i++) dot += q[i]! * v[i]!;
  if (config.similarity === "DOT_PRODUCT") return (1 + dot) / 2;
  return qNorm === 0 || vNorm === 0 ? 0.5 : (1 + dot / (qNorm * vNorm)) / 2;
}

export function sparseSearch(
  snapshot: NamespaceSnapshot,
  query: SparseVector,
  idf: boolean,
  allowed: (row: number) => boolean,
  topK: number,
): Scored[] {
  const { postings, sparseCount } = prepare(snapshot);
  const scores = new Map<number, number>();
  query.indices.forEach((index, i) => {
    const list = postings.get(index);
    if (!list) return;
    const n = list.rows.length;
    const weight = query.values[i]! * (idf ? Math.log(1 + (sparseCount - n + 0.5) / (n + 0.5)) : 1);
    list.rows.forEach((row, j) => {
      if (allowed(row)) scores.set(row, (scores.get(row) ?? 0) + weight * list.values[j]!);
    });
  });
  return rankTop(
    [...scores].map(([row, score]) => ({ id: snapshot.vectors[row]!.id, score })),
    topK,
  );
}
