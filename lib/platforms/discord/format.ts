/**
 * @module
 * Discord answers in Discord's own Markdown, which is nearly the model's: headings down to `###`, bold, italics,
 * strikethrough, lists, quotes, code blocks with their language, and `[text](url)` links all show as written.
 * What Discord does not show is rewritten (lib/text/markdown-rewrite.ts): a table becomes a code block of aligned
 * columns, a rule is left out, a deeper heading becomes a bold line, a task box ☐ or ☑, an image a link to it.
 * Mentions in the text never ping (the send's `allowed_mentions`).
 */
import { rewriteMarkdown } from "../../text/markdown-rewrite.ts";
import { type AnswerFormat, withinLimit } from "../answer-format.ts";
import type { DiscordTarget } from "./target.ts";

/** A message's `content` limit. */
export const DISCORD_MAX_MESSAGE_CHARS = 2_000;

const DIALECT = { maxHeading: 3, codeLanguage: true, escape: (text: string) => text };

export function discordMarkdown(markdown: string): string {
  return withinLimit(rewriteMarkdown(markdown, DIALECT), DISCORD_MAX_MESSAGE_CHARS, () => markdown);
}

export const discordFormat: AnswerFormat<DiscordTarget> = {
  markup: () => "discord_markdown",
  render: discordMarkdown,
};
