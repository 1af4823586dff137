/**
 * @module
 * Slack answers as `markdown_text` (chat.postMessage, chat.update and the streaming methods all take it): Slack
 * renders the model's Markdown itself, so it stays as written but for what Slack's markdown block does not show
 * (tables, rules, a code block's language, task boxes: lib/text/markdown-rewrite.ts). Slack still reads its own
 * `<…>` tokens inside it (`<!here>`, `<@U…>`, `<url|label>`), so every `<` and `>` of the text goes as `&lt;` and
 * `&gt;`, which Slack shows as the characters; a quote's `>` marks stay. `&` stays as written: Slack does not decode
 * it inside a link's target, where `&amp;` would break the link.
 */
import { rewriteMarkdown } from "../../text/markdown-rewrite.ts";
import { type AnswerFormat, withinLimit } from "../answer-format.ts";
import type { SlackTarget } from "./target.ts";

/** markdown_text's limit, on every method that takes it. */
export const SLACK_MARKDOWN_MAX_CHARS = 12_000;

/** Nothing the model writes may read as a Slack token: no ping of `<!channel>`, no link hiding where it points. */
function escapeSlackTokens(text: string): string {
  return text.replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

const DIALECT = { maxHeading: 6, codeLanguage: false, escape: escapeSlackTokens };

export function slackMarkdown(markdown: string): string {
  return withinLimit(rewriteMarkdown(markdown, DIALECT), SLACK_MARKDOWN_MAX_CHARS, () =>
    escapeSlackTokens(markdown).slice(0, SLACK_MARKDOWN_MAX_CHARS),
  );
}

export const slackFormat: AnswerFormat<SlackTarget> = {
  markup: () => "slack_markdown",
  render: slackMarkdown,
};
