/**
 * @module
 * FNV-1a over a string's UTF-16 code units: a fast, stable hash that maps a token or an n-gram to a vector index.
 * Stable across runs and machines, so stored sparse indices and local dense vectors stay valid after a restart.
 */

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export function fnv1a(text: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, FNV_PRIME);
  }
  return hash >>> 0;
}
