/**
 * @module
 * A cheap token count for o200k (OpenAI's GPT-4o/4.1/5 vocabulary) that never counts fewer tokens than the real
 * tokenizer, small enough for the Worker bundle (an exact tokenizer is about 1 MB gzipped).
 *
 * Why it never under-counts: o200k first splits text into pieces with a fixed regex, then runs byte-pair merges
 * inside each piece; the merges stop only when no two neighbouring parts together form a vocabulary token. So in
 * the final parts, two neighbouring single bytes never form a two-byte token. For each piece we compute the largest
 * number of parts that respects that rule (using the table of ASCII pairs that are tokens, and assuming nothing about
 * non-ASCII bytes); the real count cannot be larger. A piece that is itself a known token counts as 1.
 */
import type { ChatMessage } from "./prompt.ts";
import { ASCII_PAIR_TOKENS, BARE_WORD_TOKENS, SPACED_WORD_TOKENS, WHITESPACE_TOKENS } from "./o200k-facts.ts";

/** The chat format wraps every message in <|im_start|>role<|im_sep|> … <|im_end|>. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** The model's answer is primed with <|im_start|>assistant<|im_sep|>. */
export const REPLY_PRIMING_TOKENS = 3;

/** o200k's pre-tokenizer regex (a published property of the encoding); pieces never merge across its matches. */
const CONTRACTION = String.raw`(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?`;
const O200K_PIECES = new RegExp(
  [
    String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+${CONTRACTION}`,
    String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*${CONTRACTION}`,
    String.raw`\p{N}{1,3}`,
    String.raw` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
    String.raw`\s*[\r\n]+`,
    String.raw`\s+(?!\S)`,
    String.raw`\s+`,
  ].join("|"),
  "gu",
);
/** Every number of one to three ASCII digits is a single o200k token (checked in the tests). */
const ASCII_NUMBER = /^[0-9]{1,3}$/;
const ASCII_CODES = 128;

const knownSingleTokens = new Set<string>([
  ...SPACED_WORD_TOKENS.split("|").map((word) => " " + word),
  ...BARE_WORD_TOKENS.split("|"),
  ...WHITESPACE_TOKENS,
]);
const asciiPairs = Uint8Array.from(atob(ASCII_PAIR_TOKENS), (c) => c.charCodeAt(0));
const encoder = new TextEncoder();

function isPairToken(a: number, b: number): boolean {
  if (a >= ASCII_CODES || b >= ASCII_CODES) return false; // unknown: allow both to stay single
  const bit = a * ASCII_CODES + b;
  return (asciiPairs[bit >> 3]! & (1 << (bit & 7))) !== 0;
}

/**
 * The most parts the merges can leave in `bytes`: parts of 2 or 3 bytes always allowed (longer ones split into
 * those without adding singles), a single byte only when it does not form a pair token with a preceding single.
 */
function maxParts(bytes: Uint8Array): number {
  const n = bytes.length;
  // best[i][s]: most parts covering bytes[0..i), s = 1 when the last part is the single byte i-1.
  const endsMulti = new Int32Array(n + 1).fill(-1);
  const endsSingle = new Int32Array(n + 1).fill(-1);
  endsMulti[0] = 0;
  for (let i = 0; i < n; i++) {
    const multi = endsMulti[i]!;
    const single = endsSingle[i]!;
    const before = Math.max(multi, single);
    if (before < 0) continue;
    let asSingle = multi;
    if (single >= 0 && !isPairToken(bytes[i - 1]!, bytes[i]!)) asSingle = Math.max(asSingle, single);
    if (asSingle >= 0) endsSingle[i + 1] = Math.max(endsSingle[i + 1]!, asSingle + 1);
    for (const len of [2, 3]) {
      if (i + len <= n) endsMulti[i + len] = Math.max(endsMulti[i + len]!, before + 1);
    }
  }
  return Math.max(endsMulti[n]!, endsSingle[n]!);
}

function pieceTokens(piece: string): number {
  if (knownSingleTokens.has(piece) || ASCII_NUMBER.test(piece)) return 1;
  return maxParts(encoder.encode(piece));
}

/** An upper bound on the o200k token count of `text`; special-token text such as `<|endoftext|>` is plain text. */
export function countTokens(text: string): number {
  let total = 0;
  for (const match of text.matchAll(O200K_PIECES)) total += pieceTokens(match[0]);
  return total;
}

/** An upper bound on the tokens a chat request spends on its prompt, chat-format overhead included. */
export function countPromptTokens(messages: ChatMessage[]): number {
  let total = REPLY_PRIMING_TOKENS;
  for (const m of messages) total += MESSAGE_OVERHEAD_TOKENS + countTokens(m.content);
  return total;
}
