/**
 * @module
 * A set of words looked up by a slice of a text (text, start, end) and its hash, without cutting the slice out:
 * the decider reads every word of twenty messages per decision, and making each a string only to hash it again
 * in a Set was most of its cost. Open addressing over an Int32Array; a hit is confirmed character by character.
 */

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 16777619;

/** FNV-1a, one step per UTF-16 code unit: the hash the readers compute while they scan. */
export function hashStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, FNV_PRIME);
}
export const HASH_START = FNV_OFFSET;

export function hashOf(word: string): number {
  let hash = HASH_START;
  for (let i = 0; i < word.length; i++) hash = hashStep(hash, word.charCodeAt(i));
  return hash;
}

/** Whether text[start, end) is `word`. */
export function sameText(text: string, start: number, end: number, word: string): boolean {
  if (word.length !== end - start) return false;
  for (let i = 0; i < word.length; i++) if (text.charCodeAt(start + i) !== word.charCodeAt(i)) return false;
  return true;
}

export class WordTable {
  /** Words by id, in the order they were added. */
  readonly words: string[] = [];
  private readonly hashes: number[] = [];
  /** Id + 1 of the word in each slot, 0 for an empty one; at most half of them full. */
  private slots: Int32Array;

  constructor(expected: number, words: Iterable<string> = []) {
    let size = 64;
    while (size < 2 * expected) size *= 2;
    this.slots = new Int32Array(size);
    for (const word of words) this.add(word, 0, word.length, hashOf(word));
  }

  /** The id of text[start, end) (whose hash is `hash`), or -1. */
  find(text: string, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot]! - 1;
      if (id < 0) return -1;
      if (this.hashes[id] === hash && sameText(text, start, end, this.words[id]!)) return id;
    }
  }

  /** The id of text[start, end), added if it is new. */
  add(text: string, start: number, end: number, hash: number): number {
    const found = this.find(text, start, end, hash);
    if (found >= 0) return found;
    const id = this.words.length;
    this.words.push(text.slice(start, end));
    this.hashes.push(hash);
    if (2 * this.words.length > this.slots.length) this.grow();
    else this.place(id);
    return id;
  }

  private place(id: number): void {
    const mask = this.slots.length - 1;
    let slot = this.hashes[id]! & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = id + 1;
  }

  private grow(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    for (let id = 0; id < this.words.length; id++) this.place(id);
  }
}
