/**
 * @module
 * Cuts a text down to a token allowance, keeping its start (or, for a log, its end) and marking the cut with "…".
 */
import { countTokens, prefixWithinTokens } from "./tokens.ts";

const CUT_MARK = "…";

/** `text` itself when it fits `maxTokens`, else its longest prefix plus "…" that fits; "" when not even "…" fits. */
export function shortenToTokens(text: string, maxTokens: number): string {
  if (countTokens(text) <= maxTokens) return text;
  const markTokens = countTokens(CUT_MARK);
  if (markTokens > maxTokens) return "";
  // Fast path: whole pieces up to the allowance. Cutting can change how the end splits, hence the recount.
  const wholePieces = prefixWithinTokens(text, maxTokens - markTokens);
  const quick = cut(text, wholePieces);
  if (wholePieces > 0 && countTokens(quick) <= maxTokens) return quick;
  return cut(
    text,
    boundary(0, text.length, (length) => countTokens(cut(text, length)) <= maxTokens),
  );
}

/**
 * Between `fits` (a cut point whose text fits) and `tooLong` (one whose text does not), in either order, the cut
 * point closest to `tooLong` that still fits, by bisection.
 */
function boundary(fits: number, tooLong: number, fitsAt: (point: number) => boolean): number {
  while (Math.abs(tooLong - fits) > 1) {
    const mid = (fits + tooLong) >> 1;
    if (fitsAt(mid)) fits = mid;
    else tooLong = mid;
  }
  return fits;
}

function cut(text: string, length: number): string {
  // Never split a surrogate pair: half an emoji is not text.
  const end = isLowSurrogate(text.charCodeAt(length)) ? length - 1 : length;
  return text.slice(0, end).trimEnd() + CUT_MARK;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * `text` itself when it fits `maxTokens`, else "…" plus its longest suffix that fits (a log keeps its newest lines).
 */
export function shortenEndToTokens(text: string, maxTokens: number): string {
  if (countTokens(text) <= maxTokens) return text;
  if (countTokens(CUT_MARK) > maxTokens) return "";
  return tail(
    text,
    boundary(text.length, 0, (start) => countTokens(tail(text, start)) <= maxTokens),
  );
}

function tail(text: string, start: number): string {
  const from = isLowSurrogate(text.charCodeAt(start)) ? start + 1 : start;
  return CUT_MARK + text.slice(from).trimStart();
}
