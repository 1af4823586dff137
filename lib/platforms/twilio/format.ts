/**
 * @module
 * SMS and WhatsApp answers from the model's Markdown (lib/text/markdown.ts). An SMS shows no markup at all: plain
 * text, bullets as `-`, a link as its words and then its address, a table's rows as `Header: value` pairs (every
 * character GSM-7 where the model's were, so no mark costs a segment). WhatsApp has marks of its own: `*bold*`,
 * `_italic_`, `~strikethrough~`, `` `code` ``, ```` ``` ```` blocks, `>` quotes and `-` or `1.` lists; a heading is a
 * bold line and a table a monospaced block. Links are written out (both apps make an address clickable).
 */
import { type Inline, plainText } from "../../text/markdown-inline.ts";
import { type Block, parseMarkdown } from "../../text/markdown.ts";
import { tableLines } from "../../text/markdown-rewrite.ts";
import type { AnswerFormat } from "../answer-format.ts";
import { cutAtBreak, SMS_MAX_BODY_CHARS } from "./sms-text.ts";
import type { TwilioTarget } from "./target.ts";
import { isWhatsApp } from "./whatsapp.ts";

type Marks = "sms" | "whatsapp";

export const smsText = (markdown: string): string => render(markdown, "sms");
export const whatsappText = (markdown: string): string => render(markdown, "whatsapp");

export const twilioFormat: AnswerFormat<TwilioTarget> = {
  markup: (target) => (isWhatsApp(target.to) ? "whatsapp_text" : "plain_text"),
  render: (markdown, target) => (isWhatsApp(target.to) ? whatsappText(markdown) : smsText(markdown)),
};

function render(markdown: string, marks: Marks): string {
  const text = parseMarkdown(markdown)
    .map((block) => blockText(block, marks))
    .filter(Boolean)
    .join("\n\n");
  return cutAtBreak(text, SMS_MAX_BODY_CHARS);
}

function blockText(block: Block, marks: Marks): string {
  switch (block.t) {
    case "paragraph":
      return inlineText(block.inlines, marks);
    case "heading":
      return marks === "whatsapp" ? wrap("*", inlineText(block.inlines, marks)) : inlineText(block.inlines, marks);
    case "code":
      return marks === "whatsapp" ? `\`\`\`\n${block.text}\n\`\`\`` : block.text;
    case "quote":
      return block.blocks
        .map((b) => blockText(b, marks))
        .join("\n")
        .split("\n")
        .map((line) => `> ${line}`)
        .join("\n");
    case "list":
      return block.items
        .map((item) => {
          const bullet = item.number !== undefined ? `${item.number}.` : "-";
          const box = item.task === undefined ? "" : item.task ? "[x] " : "[ ] ";
          return `${"  ".repeat(item.depth)}${bullet} ${box}${inlineText(item.inlines, marks)}`;
        })
        .join("\n");
    case "table": {
      const header = block.header.map(plainText);
      const rows = block.rows.map((row) => row.map(plainText));
      if (marks === "whatsapp") return `\`\`\`\n${tableLines(header, rows).join("\n")}\n\`\`\``;
      return rows
        .map((row) => row.map((cell, k) => (header[k] ? `${header[k]}: ${cell}` : cell)).join(", "))
        .join("\n");
    }
    case "rule":
      return "";
  }
}

function inlineText(nodes: readonly Inline[], marks: Marks): string {
  return nodes
    .map((node) => {
      switch (node.t) {
        case "text":
          return node.text;
        case "code":
          return marks === "whatsapp" ? `\`${node.text}\`` : node.text;
        case "link": {
          const label = plainText(node.children).trim();
          const href = node.href.replace(/^mailto:/i, "");
          return !label || label === node.href || label === href ? href : `${label} (${href})`;
        }
        default: {
          const inner = inlineText(node.children, marks);
          if (marks === "sms") return inner;
          return wrap(node.t === "strong" ? "*" : node.t === "em" ? "_" : "~", inner);
        }
      }
    })
    .join("");
}

/** WhatsApp's mark around `text`, outside its leading and trailing spaces (a mark next to a space is no mark). */
function wrap(mark: string, text: string): string {
  const [, lead, body, trail] = text.match(/^(\s*)([\s\S]*?)(\s*)$/)!;
  return body ? `${lead}${mark}${body}${mark}${trail}` : text;
}
