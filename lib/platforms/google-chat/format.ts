/**
 * @module
 * Google Chat's answer format: the model's Markdown with what Chat cannot show rewritten first
 * (lib/text/markdown-rewrite.ts: a table becomes a code block of aligned columns, a rule is left out, every heading
 * a bold line, since Chat has none), then its inline marks in Chat's own text format (./text.ts).
 */
import { rewriteMarkdown } from "../../text/markdown-rewrite.ts";
import { type AnswerFormat, withinLimit } from "../answer-format.ts";
import type { GoogleChatTarget } from "./target.ts";
import { chatText } from "./text.ts";

/** The characters of one part (the API takes 32,000 bytes; a part of 4,000 characters of any script fits). */
export const GOOGLE_CHAT_MAX_MESSAGE_CHARS = 4_000;

const DIALECT = { maxHeading: 0, codeLanguage: false, escape: (text: string) => text };

export function googleChatText(markdown: string): string {
  return withinLimit(chatText(rewriteMarkdown(markdown, DIALECT)), GOOGLE_CHAT_MAX_MESSAGE_CHARS, () =>
    chatText(markdown),
  );
}

export const googleChatFormat: AnswerFormat<GoogleChatTarget> = {
  markup: () => "google_chat_text",
  render: googleChatText,
};
