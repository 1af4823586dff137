/**
 * @module
 * Telegram answers in the Bot API's HTML (`parse_mode: "HTML"`): the model's Markdown read into blocks
 * (lib/text/markdown.ts) and written with the tags Telegram knows (`<b>`, `<i>`, `<s>`, `<code>`, `<pre>`, `<a>`,
 * `<blockquote>`), every other `<`, `>` and `&` of the text escaped, so that no stray character makes Telegram
 * refuse the message ("can't parse entities"). Headings are bold lines, lists keep their bullets and numbers as
 * text, a table is a preformatted block of aligned columns; links go only to web and mail addresses. An `@name`
 * in the text would notify that person: it is written with a fullwidth ＠, which reads the same and pings nobody.
 */
import { type Inline, plainText } from "../../text/markdown-inline.ts";
import { type Block, parseMarkdown } from "../../text/markdown.ts";
import { tableLines } from "../../text/markdown-rewrite.ts";
import { type AnswerFormat, withinLimit } from "../answer-format.ts";
import type { TelegramTarget } from "./target.ts";

/** sendMessage's and editMessageText's limit: "1-4096 characters after entities parsing". */
export const TELEGRAM_MAX_MESSAGE_CHARS = 4_096;

/**
 * An `@name` in a bot's text becomes a mention and notifies that person: what the model writes must ping no one.
 * The fullwidth ＠ (U+FF20) reads the same and is no mention; one character for one, so parts split alike.
 */
export function withoutMentions(text: string): string {
  return text.replace(/(^|[^A-Za-z0-9_])@(?=[A-Za-z0-9_])/g, "$1\uFF20");
}

/** The HTML escapes the Bot API documents (`&lt;`, `&gt;`, `&amp;`; `&quot;` inside an attribute). */
function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function telegramHtml(markdown: string): string {
  const html = parseMarkdown(markdown)
    .map((block) => blockHtml(block, false))
    .filter(Boolean)
    .join("\n\n");
  return withinLimit(html, TELEGRAM_MAX_MESSAGE_CHARS, () => escapeHtml(withoutMentions(markdown)), shownLength);
}

export const telegramFormat: AnswerFormat<TelegramTarget> = {
  markup: () => "telegram_html",
  render: telegramHtml,
  shownText,
};

const ESCAPES: Readonly<Record<string, string>> = { "&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"' };

/** The text Telegram shows of HTML this module wrote: the tags left out, each escape its character. */
function shownText(html: string): string {
  return html.replace(/<[^>]*>/g, "").replace(/&(?:lt|gt|amp|quot);/g, (e) => ESCAPES[e]!);
}

/** How many characters Telegram counts in HTML this module wrote. */
const shownLength = (html: string): number => shownText(html).length;

/** A block as HTML; inside a quote, no quote again (Telegram's blockquotes do not nest). */
function blockHtml(block: Block, quoted: boolean): string {
  switch (block.t) {
    case "paragraph":
      return inlineHtml(block.inlines);
    case "heading":
      return `<b>${inlineHtml(block.inlines)}</b>`;
    case "code": {
      const code = escapeHtml(block.text);
      const lang = /^[A-Za-z0-9_+-]+$/.test(block.lang) ? block.lang : "";
      return lang ? `<pre><code class="language-${lang}">${code}</code></pre>` : `<pre>${code}</pre>`;
    }
    case "quote": {
      const inner = block.blocks
        .map((b) => blockHtml(b, true))
        .filter(Boolean)
        .join("\n");
      return quoted ? inner : `<blockquote>${inner}</blockquote>`;
    }
    case "list":
      return block.items
        .map((item) => {
          const bullet = item.number !== undefined ? `${item.number}.` : item.depth > 0 ? "◦" : "•";
          const box = item.task === undefined ? "" : item.task ? "☑ " : "☐ ";
          return `${"   ".repeat(item.depth)}${bullet} ${box}${inlineHtml(item.inlines)}`;
        })
        .join("\n");
    case "table":
      return `<pre>${escapeHtml(
        tableLines(
          block.header.map(plainText),
          block.rows.map((r) => r.map(plainText)),
        ).join("\n"),
      )}</pre>`;
    case "rule":
      return "";
  }
}

/** Inline nodes as HTML; inside a link no other link nor code (Telegram's entities cannot hold those there). */
function inlineHtml(nodes: readonly Inline[], inLink = false): string {
  return nodes.map((node) => nodeHtml(node, inLink)).join("");
}

function nodeHtml(node: Inline, inLink: boolean): string {
  switch (node.t) {
    case "text":
      return escapeHtml(withoutMentions(node.text));
    case "code":
      return inLink ? escapeHtml(node.text) : `<code>${escapeHtml(node.text)}</code>`;
    case "strong":
      return `<b>${inlineHtml(node.children, inLink)}</b>`;
    case "em":
      return `<i>${inlineHtml(node.children, inLink)}</i>`;
    case "strike":
      return `<s>${inlineHtml(node.children, inLink)}</s>`;
    case "link":
      return inLink
        ? inlineHtml(node.children, true)
        : `<a href="${escapeHtml(node.href).replace(/"/g, "&quot;")}">${inlineHtml(node.children, true)}</a>`;
  }
}
