/**
 * @module
 * Markdown kept as Markdown for a platform that reads it (Slack's markdown_text, Discord): every block stays as
 * the model wrote it except what the platform cannot show. A table becomes a code block of aligned columns, a rule
 * is left out, a heading deeper than the platform's becomes a bold line, a task box becomes ☐ or ☑, an image a
 * link to it, and the Slack-style `<url|label>` (or `<url>`) a model sometimes writes a Markdown link. Anything
 * the platform would read as its own syntax is escaped by the platform's `escape`.
 */
import { plainText } from "./markdown-inline.ts";
import { parseSourced, type SourcedBlock } from "./markdown.ts";

export interface MarkdownDialect {
  /** The deepest heading the platform shows (Discord: 3); deeper ones become bold lines. */
  maxHeading: number;
  /** Whether a code block may name its language (Discord highlights it; Slack would show the name). */
  codeLanguage: boolean;
  /** Makes text safe where the platform reads more than Markdown (Slack's `<!here>`); applied to code too. */
  escape(text: string): string;
}

const SLACK_LINK = /<((?:https?:\/\/|mailto:)[^\s<>|]+)(?:\|([^<>]*))?>/gi;
const CODE_SPAN = /(`+)[\s\S]*?\1/g;
const TASK = /^([ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+)\[([ xX])\](?=[ \t])/;
const QUOTE_MARKS = /^(?:[ \t]{0,3}>[ \t]?)+/;

export function rewriteMarkdown(markdown: string, dialect: MarkdownDialect): string {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  const out: string[] = [];
  let at = 0;
  for (const block of parseSourced(markdown)) {
    // Blank lines between blocks stay as they were.
    for (; at < block.lines[0]; at++) out.push(lines[at]!);
    const shown = blockLines(block, lines.slice(...block.lines), dialect);
    if (shown.length === 0 && out.length > 0 && out[out.length - 1] !== "") out.push("");
    out.push(...shown);
    at = block.lines[1];
  }
  return out
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function blockLines(block: SourcedBlock, source: string[], dialect: MarkdownDialect): string[] {
  switch (block.t) {
    case "code": {
      const fence = block.text.includes("```") ? "~~~" : "```";
      return [fence + (dialect.codeLanguage ? block.lang : ""), dialect.escape(block.text), fence];
    }
    case "table":
      return [
        "```",
        ...tableLines(
          block.header.map(plainText),
          block.rows.map((r) => r.map(plainText)),
        ).map(dialect.escape),
        "```",
      ];
    case "rule":
      return [];
    case "heading":
      if (block.level <= dialect.maxHeading) return source.map((line) => prose(line, dialect));
      return [`**${prose(plainText(block.inlines), dialect)}**`];
    default:
      return source.map((line) => {
        const marks = line.match(QUOTE_MARKS)?.[0] ?? "";
        const rest = line
          .slice(marks.length)
          .replace(TASK, (_all, item: string, box: string) => `${item}${box === " " ? "☐" : "☑"}`);
        return marks + prose(rest, dialect);
      });
  }
}

/** A line of prose: links written the Markdown way (outside code spans), then escaped. */
function prose(line: string, dialect: MarkdownDialect): string {
  let out = "";
  let last = 0;
  for (const code of line.matchAll(CODE_SPAN)) {
    out += linksOf(line.slice(last, code.index)) + code[0];
    last = code.index + code[0].length;
  }
  return dialect.escape(out + linksOf(line.slice(last)));
}

function linksOf(text: string): string {
  return text
    .replace(SLACK_LINK, (_all, url: string, label?: string) => (label?.trim() ? `[${label.trim()}](${url})` : url))
    .replace(/!\[([^\]]*)\]\(/g, (_all, alt: string) => `[${alt || "image"}](`);
}

/**
 * A table's rows of plain cells as columns padded to their widest cell (by code point), joined by two spaces, the
 * header underlined: how it reads in a monospaced block.
 */
export function tableLines(header: readonly string[], rows: readonly string[][]): string[] {
  const width = (s: string) => [...s].length;
  const widths: number[] = [];
  for (const row of [header, ...rows])
    for (const [k, cell] of row.entries()) widths[k] = Math.max(widths[k] ?? 0, width(cell));
  const rule = widths.map((w) => "-".repeat(Math.max(w, 1)));
  return [header, rule, ...rows].map((row) =>
    row
      .map((cell, k) => (k === row.length - 1 ? cell : cell + " ".repeat(widths[k]! - width(cell))))
      .join("  ")
      .trimEnd(),
  );
}
