/**
 * @module
 * Text compared the way people read it: case and accents do not matter ("Café" is "cafe"), and for whole phrases
 * neither do punctuation and spacing ("Forget me!" is "forget me"). The one normalizer behind name matching,
 * reset and "forget me" phrases, and fact deduplication.
 */

const COMBINING_MARKS = /\p{M}+/gu;
const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]+/gu;

/** Lower case with accents dropped; everything else (punctuation, spacing) kept as it is. */
export function foldCase(text: string): string {
  return text.normalize("NFKD").replace(COMBINING_MARKS, "").toLowerCase();
}

/** Only the words: lower case, accents dropped, every run of anything else one space, trimmed. */
export function normalizeWords(text: string): string {
  return foldCase(text).replace(NOT_LETTER_OR_DIGIT, " ").trim();
}
