/**
 * @module
 * BM25 sparse vectors as Upstash's hosted BM25 model makes them: English text lower-cased and split into words,
 * stop words dropped, words stemmed (Porter), each stem hashed to an index. A document's value per stem is BM25's
 * term-frequency part, tf·(k1+1) / (tf + k1·(1 − b + b·|D|/avgdl)) with k1 1.2, b 0.75 and avgdl fixed at 32; a
 * query's value is 1 per distinct stem. The IDF part lives in the index (lib search.ts), applied only when a query
 * asks for it, as on Upstash.
 */
import { stemmer } from "stemmer";
import { fnv1a } from "../../lib/memory/recall/fnv1a.ts";
import { ENGLISH_STOP_WORDS } from "./stop-words.ts";

export interface SparseVector {
  indices: number[];
  values: number[];
}

const K1 = 1.2;
const B = 0.75;
const AVERAGE_DOCUMENT_LENGTH = 32;
/** Upstash refuses sparse vectors with more non-zero entries. */
export const MAX_SPARSE_ENTRIES = 1_000;
const WORD = /[\p{L}\p{N}]+/gu;
const APOSTROPHES = /['’]/g;

/** The words of `text` that carry meaning: lower-case, apostrophes joined ("don't" → "dont"), stop words dropped. */
export function contentWords(text: string): string[] {
  const words = text.normalize("NFKC").toLowerCase().replace(APOSTROPHES, "").match(WORD) ?? [];
  return words.filter((w) => !ENGLISH_STOP_WORDS.has(w));
}

/** Stems hashed into the non-negative int32 range, the index space of a sparse vector. */
function stemIndex(word: string): number {
  return fnv1a(stemmer(word)) & 0x7fffffff;
}

function termCounts(text: string): { counts: Map<number, number>; length: number } {
  const counts = new Map<number, number>();
  const words = contentWords(text);
  for (const word of words) {
    const index = stemIndex(word);
    counts.set(index, (counts.get(index) ?? 0) + 1);
  }
  return { counts, length: words.length };
}

/** Sorted by index, the strongest entries kept when a long text has more than the index accepts. */
function toSparse(entries: [number, number][]): SparseVector {
  const kept =
    entries.length > MAX_SPARSE_ENTRIES
      ? [...entries].sort((a, b) => b[1] - a[1]).slice(0, MAX_SPARSE_ENTRIES)
      : entries;
  kept.sort((a, b) => a[0] - b[0]);
  return { indices: kept.map((e) => e[0]), values: kept.map((e) => e[1]) };
}

export function bm25Document(text: string): SparseVector {
  const { counts, length } = termCounts(text);
  const norm = K1 * (1 - B + (B * length) / AVERAGE_DOCUMENT_LENGTH);
  return toSparse([...counts].map(([index, tf]) => [index, (tf * (K1 + 1)) / (tf + norm)]));
}

export function bm25Query(text: string): SparseVector {
  return toSparse([...termCounts(text).counts.keys()].map((index) => [index, 1]));
}
