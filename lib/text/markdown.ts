/**
 * @module
 * The model's answer as Markdown blocks: paragraphs, headings (`#` and setext), fenced code, quotes, lists (with
 * their depth and task boxes), GitHub tables and rules, each with the lines of the source it came from, so that a
 * platform that reads Markdown itself can keep a block as written and one that does not can render it. Inline
 * text is read by ./markdown-inline.ts. Every input parses: what is not a block is a paragraph.
 */
import { type Inline, parseInline } from "./markdown-inline.ts";

export type Block =
  | { t: "paragraph"; inlines: Inline[] }
  | { t: "heading"; level: number; inlines: Inline[] }
  | { t: "code"; lang: string; text: string; closed: boolean }
  | { t: "quote"; blocks: Block[] }
  | { t: "list"; items: ListItem[] }
  | { t: "table"; header: Inline[][]; rows: Inline[][][] }
  | { t: "rule" };

interface ListItem {
  /** 0 for a top-level item, 1 for one indented under it, … */
  depth: number;
  /** The item's number in an ordered list; undefined for a bullet. */
  number?: number;
  /** A task list's box: checked or not; undefined for an ordinary item. */
  task?: boolean;
  inlines: Inline[];
}

/** A block with the source lines it was read from, [start, end). */
export type SourcedBlock = Block & { lines: [number, number] };

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const ITEM = /^([ \t]*)([-*+]|(\d{1,9})[.)])[ \t]+(.*)$/;
const TASK = /^\[([ xX])\][ \t]+(.*)$/;
const TABLE_DELIMITER = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;

export function parseMarkdown(text: string): Block[] {
  return parseSourced(text).map(({ lines: _lines, ...block }) => block as Block);
}

export function parseSourced(text: string): SourcedBlock[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const blocks: SourcedBlock[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (!line.trim()) {
      i += 1;
      continue;
    }
    const start = i;
    const block = blockAt(lines, i);
    i = block.next;
    blocks.push({ ...block.block, lines: [start, i] } as SourcedBlock);
  }
  return blocks;
}

function blockAt(lines: string[], i: number): { block: Block; next: number } {
  const line = lines[i]!;
  const fence = line.match(FENCE);
  if (fence) {
    const mark = fence[1]!;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = lines[j]!.match(/^ {0,3}(`{3,}|~{3,})[ \t]*$/);
      if (close && close[1]![0] === mark[0] && close[1]!.length >= mark.length) break;
      body.push(lines[j]!);
    }
    const closed = j < lines.length;
    return { block: { t: "code", lang: fence[2] ?? "", text: body.join("\n"), closed }, next: closed ? j + 1 : j };
  }
  const heading = line.match(HEADING);
  if (heading)
    return { block: { t: "heading", level: heading[1]!.length, inlines: parseInline(heading[2] ?? "") }, next: i + 1 };
  if (RULE.test(line)) return { block: { t: "rule" }, next: i + 1 };
  if (QUOTE.test(line)) {
    const inner: string[] = [];
    let j = i;
    for (; j < lines.length && QUOTE.test(lines[j]!); j++) inner.push(lines[j]!.match(QUOTE)![1]!);
    return { block: { t: "quote", blocks: parseMarkdown(inner.join("\n")) }, next: j };
  }
  if (ITEM.test(line)) return listAt(lines, i);
  if (startsTable(lines, i)) return tableAt(lines, i);
  // A paragraph: up to a blank line or the start of another block; a setext underline makes it a heading.
  const body: string[] = [line];
  let j = i + 1;
  for (; j < lines.length; j++) {
    const next = lines[j]!;
    const underline = next.match(SETEXT);
    if (underline) {
      const level = underline[1]![0] === "=" ? 1 : 2;
      return { block: { t: "heading", level, inlines: parseInline(body.join("\n")) }, next: j + 1 };
    }
    if (!next.trim() || startsBlock(next) || startsTable(lines, j)) break;
    body.push(next);
  }
  return { block: { t: "paragraph", inlines: parseInline(body.join("\n")) }, next: j };
}

/** Whether `line` opens a block of its own (it then ends a paragraph). */
function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || ITEM.test(line);
}

function startsTable(lines: string[], i: number): boolean {
  const next = lines[i + 1];
  return lines[i]!.includes("|") && next !== undefined && TABLE_DELIMITER.test(next) && next.includes("-");
}

function listAt(lines: string[], i: number): { block: Block; next: number } {
  const items: ListItem[] = [];
  const indents: number[] = [];
  let j = i;
  while (j < lines.length) {
    const item = lines[j]!.match(ITEM);
    if (!item) break;
    const indent = item[1]!.replace(/\t/g, "    ").length;
    while (indents.length && indent < indents[indents.length - 1]!) indents.pop();
    if (!indents.length || indent > indents[indents.length - 1]! + 1) indents.push(indent);
    const body = [item[4]!];
    j += 1;
    // Lines indented under the item (no blank line between) continue it.
    for (; j < lines.length && /^[ \t]+\S/.test(lines[j]!) && !ITEM.test(lines[j]!); j++) body.push(lines[j]!.trim());
    const task = body[0]!.match(TASK);
    if (task) body[0] = task[2]!;
    items.push({
      depth: indents.length - 1,
      ...(item[3] !== undefined ? { number: Number(item[3]) } : {}),
      ...(task ? { task: task[1] !== " " } : {}),
      inlines: parseInline(body.join("\n")),
    });
    // One blank line between items keeps the list going.
    if (!lines[j]?.trim() && j + 1 < lines.length && ITEM.test(lines[j + 1]!)) j += 1;
  }
  return { block: { t: "list", items }, next: j };
}

function tableAt(lines: string[], i: number): { block: Block; next: number } {
  const header = cells(lines[i]!);
  const rows: Inline[][][] = [];
  let j = i + 2;
  for (; j < lines.length && lines[j]!.includes("|") && lines[j]!.trim(); j++) rows.push(cells(lines[j]!));
  return { block: { t: "table", header, rows }, next: j };
}

/** A table row's cells, split at the pipes that are not escaped or in code, outer pipes dropped. */
function cells(row: string): Inline[][] {
  const parts: string[] = [];
  let cell = "";
  let code = false;
  for (let k = 0; k < row.length; k++) {
    const ch = row[k]!;
    if (ch === "\\" && row[k + 1] === "|") {
      cell += "|";
      k += 1;
    } else if (ch === "`") {
      code = !code;
      cell += ch;
    } else if (ch === "|" && !code) {
      parts.push(cell);
      cell = "";
    } else cell += ch;
  }
  parts.push(cell);
  if (!parts[0]!.trim()) parts.shift();
  if (parts.length && !parts[parts.length - 1]!.trim()) parts.pop();
  return parts.map((p) => parseInline(p.trim()));
}
