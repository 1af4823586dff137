/**
 * @module
 * Splits a long answer into chunks a chat platform accepts (Slack 4,000, Discord 2,000, SMS 1,600 characters),
 * cutting where a reader expects a break: between paragraphs, then lines, then sentences, then words. A code block
 * cut in two is closed at the end of one chunk and opened again at the start of the next, so that each renders.
 */

/**
 * Separators from the most to the least natural place to cut. A chunk ends where its separator starts; the
 * separator itself (whitespace) is dropped. CJK sentence ends carry no space, so the cut is right after them.
 */
const BREAKS: readonly RegExp[] = [/\n[ \t]*\n\s*/g, /\n\s*/g, /(?<=[.!?…]['")\]]*)\s+|(?<=[。！？])/g, /\s+/g];

/** A natural break earlier than this share of the limit makes too many tiny messages: cut later, less nicely. */
const MIN_FILL = 0.5;

/**
 * Chunks of at most `maxChars` UTF-16 code units each (what `.length` counts; never fewer units than the
 * platforms' own character counts, so the limit holds), in order, never cutting a surrogate pair.
 * Leading and trailing whitespace of the text and at each cut is dropped; empty text gives no chunk.
 */
export function splitText(text: string, maxChars: number): string[] {
  if (!Number.isInteger(maxChars) || maxChars < 2) throw new RangeError("maxChars must be an integer of at least 2");
  const chunks: string[] = [];
  let rest = text.trim();
  while (rest.length > maxChars) {
    const { end, next } = cutPoint(rest, maxChars);
    const fence = openFence(rest.slice(0, end));
    if (fence && maxChars >= MIN_FENCED_CHUNK * (fence.line.length + 1)) {
      const cut = cutPoint(rest, maxChars - fence.mark.length - 1);
      const chunk = rest.slice(0, cut.end).trimEnd();
      const open = openFence(chunk);
      chunks.push(open ? `${chunk}\n${open.mark}` : chunk);
      rest = (open ? `${open.line}\n` : "") + rest.slice(cut.next).trimStart();
      continue;
    }
    chunks.push(rest.slice(0, end).trimEnd());
    rest = rest.slice(next).trimStart();
  }
  if (rest) chunks.push(rest);
  return chunks;
}

/** A chunk must hold this many times its code block's opening line for the block to be carried over to the next. */
const MIN_FENCED_CHUNK = 4;
const FENCE_LINE = /^[ \t]*((`{3,}|~{3,})[^\n]*)$/gm;

/** The code block `text` leaves open: its opening line and its fence; undefined when every block is closed. */
function openFence(text: string): { line: string; mark: string } | undefined {
  let open: { line: string; mark: string } | undefined;
  for (const [, line, mark] of text.matchAll(FENCE_LINE)) {
    if (!open) open = { line: line!.trim(), mark: mark! };
    else if (mark![0] === open.mark[0] && mark!.length >= open.mark.length && line!.trim() === mark) open = undefined;
  }
  return open;
}

/** Where the first chunk of `text` ends and where the remainder starts. */
function cutPoint(text: string, maxChars: number): { end: number; next: number } {
  const window = text.slice(0, maxChars + 1);
  const earliest = Math.max(1, Math.floor(maxChars * MIN_FILL));
  for (const pattern of BREAKS) {
    let best: RegExpExecArray | undefined;
    for (const match of window.matchAll(pattern)) {
      if (match.index > maxChars) break;
      if (match.index >= earliest) best = match;
    }
    if (best) return { end: best.index, next: best.index + best[0].length };
  }
  const cut = hardCut(text, maxChars);
  return { end: cut, next: cut };
}

/** `maxChars`, or one less when that would split an emoji or other astral character in two. */
function hardCut(text: string, maxChars: number): number {
  const last = text.charCodeAt(maxChars - 1);
  return last >= 0xd800 && last <= 0xdbff ? maxChars - 1 : maxChars;
}
