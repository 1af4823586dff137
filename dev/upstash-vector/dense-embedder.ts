/**
 * @module
 * The stand-in's own dense embedder, reported as LOCAL_HASHED_NGRAM in /info: NOT a language model. Each content
 * word (stop words dropped) and each character trigram of it is hashed into one of `dimension` signed buckets, with
 * a log-damped count, and the vector is L2-normalised. It finds texts that share words or word pieces (plurals,
 * typos, compounds), never synonyms; production's hosted model does much more. Deterministic, so stored vectors
 * stay valid across restarts.
 */
import { contentWords } from "./bm25.ts";
import { fnv1a } from "../../lib/memory/recall/fnv1a.ts";

export const LOCAL_EMBEDDING_MODEL = "LOCAL_HASHED_NGRAM";
/** The dimension of the smallest hosted English model (bge-small-en-v1.5): a dense index can switch to it. */
export const DEFAULT_LOCAL_DIMENSION = 384;
/** Trigrams say less than a whole word each, and a word has several of them. */
const TRIGRAM_WEIGHT = 0.4;
const SIGN_BIT = 0x80000000;

export function embedLocally(text: string, dimension: number): number[] {
  const counts = new Map<string, number>();
  const add = (feature: string, weight: number) => counts.set(feature, (counts.get(feature) ?? 0) + weight);
  for (const word of contentWords(text)) {
    add(`w:${word}`, 1);
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) add(`g:${padded.slice(i, i + 3)}`, TRIGRAM_WEIGHT);
  }
  const vector = new Array<number>(dimension).fill(0);
  for (const [feature, count] of counts) {
    const hash = fnv1a(feature);
    // Signed buckets: two features that collide cancel out on average instead of always adding up.
    vector[hash % dimension]! += (hash & SIGN_BIT ? -1 : 1) * Math.log1p(count);
  }
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((v) => v / norm);
}
