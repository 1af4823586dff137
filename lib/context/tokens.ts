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
import { base64ToBytes } from "../base64.ts";
import type { ChatMessage } from "./chat-message.ts";
import { ASCII_PAIR_TOKENS, BARE_WORD_TOKENS, SPACED_WORD_TOKENS, WHITESPACE_TOKENS } from "./o200k-facts.ts";
import { decodeWords } from "./word-list.ts";

/** The chat format wraps every message in <|im_start|>role<|im_sep|> … <|im_end|>. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** The model's answer is primed with <|im_start|>assistant<|im_sep|>. */
const REPLY_PRIMING_TOKENS = 3;

/** o200k's pre-tokenizer regex (a published property of the encoding); pieces never merge across its matches. */
const CONTRACTION = `(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?`;
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

let knownSingleTokens: Set<string> | undefined;
/** Built on first use rather than when the Worker starts: webhooks never count tokens, only jobs do. */
function singleTokens(): Set<string> {
  knownSingleTokens ??= new Set<string>([
    ...decodeWords(SPACED_WORD_TOKENS).map((word) => ` ${word}`),
    ...decodeWords(BARE_WORD_TOKENS),
    ...WHITESPACE_TOKENS,
  ]);
  return knownSingleTokens;
}
// Generated (dev/o200k-facts.generate.ts), so always base64: the empty fallback is never taken.
const asciiPairs = base64ToBytes(ASCII_PAIR_TOKENS) ?? new Uint8Array();
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
  const NONE = -Infinity;
  // Most parts covering the first k-1, k-2, k-3 bytes, ending in a part of 2+ bytes (multi) or a single byte.
  let multi1 = 0,
    multi2 = NONE,
    multi3 = NONE;
  let single1 = NONE,
    single2 = NONE,
    single3 = NONE;
  for (let k = 1; k <= bytes.length; k++) {
    const afterSingle = k >= 2 && !isPairToken(bytes[k - 2]!, bytes[k - 1]!) ? single1 : NONE;
    const single = Math.max(multi1, afterSingle) + 1;
    const multi = Math.max(multi2, single2, multi3, single3) + 1;
    multi3 = multi2;
    multi2 = multi1;
    multi1 = multi;
    single3 = single2;
    single2 = single1;
    single1 = single;
  }
  return Math.max(multi1, single1);
}

function pieceTokens(piece: string): number {
  if (singleTokens().has(piece) || ASCII_NUMBER.test(piece)) return 1;
  return maxParts(encoder.encode(piece));
}

/** An upper bound on the o200k token count of `text`; special-token text such as `<|endoftext|>` is plain text. */
export function countTokens(text: string): number {
  let total = 0;
  for (const match of text.matchAll(O200K_PIECES)) total += pieceTokens(match[0]);
  return total;
}

/** The length of the longest start of `text`, cut between o200k pieces, whose estimate stays within `maxTokens`. */
export function prefixWithinTokens(text: string, maxTokens: number): number {
  let total = 0;
  let end = 0;
  for (const match of text.matchAll(O200K_PIECES)) {
    total += pieceTokens(match[0]);
    if (total > maxTokens) break;
    end = match.index + match[0].length;
  }
  return end;
}

/** An upper bound on the tokens a chat request spends on its prompt, chat-format overhead included. */
export function countPromptTokens(messages: ChatMessage[]): number {
  let total = REPLY_PRIMING_TOKENS;
  for (const m of messages) total += MESSAGE_OVERHEAD_TOKENS + countTokens(m.content);
  return total;
}
