/**
 * @module
 * A snapshot of an answer still being written, with its open Markdown closed: an open code fence, inline code,
 * bold or strikethrough would otherwise swallow the rest of the message until the model closes it. The next
 * snapshot is the longer raw text, closed again where it still needs it, so the marks "reopen" by themselves.
 */

const FENCE = /^[ \t]*(```|~~~)/gm;
/** Inline marks closed in this order (innermost last opened is unknown: closing in a fixed order reads well). */
const INLINE_MARKS = ["`", "**", "~~"] as const;

export function closeMarkdown(text: string): string {
  const fences = [...text.matchAll(FENCE)];
  if (fences.length % 2 === 1) {
    const open = fences[fences.length - 1]!;
    // A fence with no line of code under it yet would show an empty block: left out until it has one.
    if (!text.slice(open.index).includes("\n")) return text.slice(0, open.index).trimEnd();
    return `${text}${text.endsWith("\n") ? "" : "\n"}${open[1]}`;
  }
  // Inline marks count only in the prose after the last closed fence: code may hold any of them.
  const lastFence = fences[fences.length - 1];
  const prose = lastFence ? text.slice(lastFence.index + lastFence[0].length) : text;
  let closing = "";
  let body = text.trimEnd();
  let rest = prose;
  for (const mark of INLINE_MARKS) {
    if (count(rest, mark) % 2 === 1) {
      // A mark with nothing after it yet is dropped, not closed: `**` would show as `****`.
      if (body.endsWith(mark)) body = body.slice(0, -mark.length).trimEnd();
      else closing = mark + closing;
    }
    // Code spans hide the other marks.
    if (mark === "`") rest = rest.replace(/`[^`]*`?/g, "");
  }
  return closing || body !== text.trimEnd() ? body + closing : text;
}

function count(text: string, mark: string): number {
  return text.split(mark).length - 1;
}
