/**
 * @module
 * A pasted text file as the prompt reads it: its bytes decoded as UTF-8 and cut to TEXT_FILE_MAX_BYTES, a log
 * from its start (its newest lines are at the end), anything else from its end. Bytes that are not text (a NUL
 * among them) make it a file that is named, not read.
 */

/** Marks where a file was cut. */
const FILE_CUT_MARK = "[…]";

export interface ReadText {
  text: string;
  /** Bytes were left out to keep it within the limit. */
  cut: boolean;
}

/**
 * `bytes` as text within `maxBytes`: `keepEnd` keeps the last bytes (a log), else the first. null when the bytes
 * are not text.
 */
export function readTextFile(
  bytes: Uint8Array,
  maxBytes: number,
  keepEnd: boolean,
  totalBytes = bytes.length,
): ReadText | null {
  if (bytes.includes(0)) return null;
  const cut = totalBytes > maxBytes || bytes.length > maxBytes;
  const kept = !cut
    ? bytes
    : keepEnd
      ? bytes.subarray(Math.max(0, bytes.length - maxBytes))
      : bytes.subarray(0, maxBytes);
  // A cut may fall inside a character: the decoder's replacement marks it, and it is trimmed away.
  const text = new TextDecoder("utf-8").decode(kept).replace(/^\uFFFD+|\uFFFD+$/g, "");
  if (!cut) return { text, cut };
  return { text: keepEnd ? `${FILE_CUT_MARK}\n${text}` : `${text}\n${FILE_CUT_MARK}`, cut };
}
