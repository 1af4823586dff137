/**
 * @module
 * FNV-1a over a string's UTF-16 code units: a fast, stable 32-bit hash. Passage boundaries use it (so they do not
 * depend on where a batch of messages starts), and the local Vector stand-in hashes words to vector indices with it.
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
