/**
 * @module
 * Teams' answer format: the model's Markdown sent with `textFormat: "markdown"`, which Teams renders in a subset
 * ("Format your bot messages": bold, italic, strikethrough, lists, preformatted text, blockquotes, links; in a
 * text-only message no tables and, on every client, no headers), so what it cannot show is rewritten first
 * (lib/text/markdown-rewrite.ts): a table becomes a code block of aligned columns, a rule is left out, every heading a
 * bold line. A `<at>…</at>` the model writes mentions no one (a mention takes an entity, which Parley never sends).
 */
import { rewriteMarkdown } from "../../text/markdown-rewrite.ts";
import { type AnswerFormat, withinLimit } from "../answer-format.ts";
import type { TeamsTarget } from "./target.ts";

/**
 * The characters of one part. A bot message may be 40 KB "encoded as UTF-16" with its envelope (413
 * MessageSizeTooBig past it): 8,000 UTF-16 units are 16 KB, whatever the script.
 */
export const TEAMS_MAX_MESSAGE_CHARS = 8_000;

const DIALECT = { maxHeading: 0, codeLanguage: false, escape: (text: string) => text };

export function teamsMarkdown(markdown: string): string {
  return withinLimit(rewriteMarkdown(markdown, DIALECT), TEAMS_MAX_MESSAGE_CHARS, () => markdown);
}

export const teamsFormat: AnswerFormat<TeamsTarget> = {
  markup: () => "teams_markdown",
  render: teamsMarkdown,
};
