/**
 * @module
 * Finding a name in chat text: whole words, case- and accent-insensitive, names may carry punctuation
 * ("bar_", "[x]", "Matt|") or several words ("parley bot").
 */
import { foldCase } from "../text/normalize.ts";

/** Letters, digits and "_" continue a word: "parleying" does not contain "parley", "bar_" is not "bar". */
const WORD_CHAR = /[\p{L}\p{N}_]/u;
/** A run of two or more whitespace characters, or one that is not a plain space: what becomes one space. */
const WHITESPACE_RUN = /\s{2,}|[^\S ]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: every ASCII byte, controls included
const ASCII = /^[\x00-\x7f]*$/;

/** What plain ASCII lacks: a character past ASCII, a tab or line break, or two spaces in a row. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII bytes but the line-breaking ones
const NOT_PLAIN_ASCII = /[^\x00-\x08\x0e-\x7f]| {2}/;

/** Lower case, accents dropped, runs of whitespace made one space. */
export function normalizeText(text: string): string {
  // Most chat is plain ASCII, where folding is lower-casing: the decider normalizes twenty messages per decision.
  if (!NOT_PLAIN_ASCII.test(text)) return text.toLowerCase();
  return (ASCII.test(text) ? text.toLowerCase() : foldCase(text)).replace(WHITESPACE_RUN, " ");
}

export function isWordChar(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const code = ch.charCodeAt(0);
  // ASCII by hand (the regex costs more than the rest of a name search): \p{L} is A-Z a-z, \p{N} is 0-9.
  if (code <= 0x7f)
    return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95;
  return WORD_CHAR.test(ch);
}

/** True when `name` (already normalized) occurs in `text` (already normalized) as a whole word. */
function containsNormalizedName(text: string, name: string): boolean {
  if (name.length === 0) return false;
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    // Only a name that starts or ends with a word character can run into its neighbours.
    const before = isWordChar(name[0]) && isWordChar(text[at - 1]);
    const after = isWordChar(name[name.length - 1]) && isWordChar(text[at + name.length]);
    if (!before && !after) return true;
  }
  return false;
}

/** True when `name` occurs in `text` as a whole word, ignoring case and accents. */
export function containsName(text: string, name: string): boolean {
  return containsNormalizedName(normalizeText(text), normalizeText(name.trim()));
}

const LEADING_ADDRESS = /^\s*@?([^\s:,]+)\s*[:,>]/u;

/**
 * The nick a message opens with, chat style ("alice: try this", "bob, no"), normalized; null when it opens
 * otherwise. Only the shape is checked: the caller decides whether the token is somebody's name.
 */
export function leadingAddressee(normalizedText: string): string | null {
  const match = LEADING_ADDRESS.exec(normalizedText);
  return match?.[1] ?? null;
}
