/**
 * @module
 * How a platform shows the model's Markdown: each adapter owns one AnswerFormat (lib/platforms/<name>/format.ts)
 * that renders a part of an answer, or a snapshot of one still being written, into the platform's own markup
 * (Slack's markdown_text, Discord's Markdown, Telegram's HTML, plain SMS text, WhatsApp's marks). The core keeps
 * the model's text as written and splits it (lib/text/split.ts); the platform renders each part it sends.
 */
import { closeMarkdown } from "../text/close-markdown.ts";

/** What the platform reads a rendered text as: the simulator and the tests show and check it by this name. */
type Markup =
  | "slack_markdown"
  | "discord_markdown"
  | "telegram_html"
  | "plain_text"
  | "whatsapp_text"
  | "google_chat_text"
  | "teams_markdown";

export interface AnswerFormat<Target> {
  /** The markup `render` produces for `target` (a Twilio number may be SMS or WhatsApp). */
  markup(target: Target): Markup;
  /**
   * A whole part of an answer (at most the platform's message length of Markdown) in the platform's markup, no
   * longer than one message takes once the platform has read it. Never throws: any text renders.
   */
  render(markdown: string, target: Target): string;
  /** What a reader sees of a rendered text, its markup left out, where that is not the text itself (HTML). */
  shownText?(rendered: string): string;
}

/**
 * A snapshot of an answer still being written, its open marks closed first (lib/text/close-markdown.ts): the
 * platform shows `**Rollback` as bold at once, and nothing of a lone `**` yet.
 */
export function renderSnapshot<Target>(format: AnswerFormat<Target>, markdown: string, target: Target): string {
  return format.render(closeMarkdown(markdown), target);
}

/** Whether the snapshot shows anything yet: a lone `## ` or `- ` renders to nothing a platform would take. */
export function snapshotShows<Target>(format: AnswerFormat<Target>, markdown: string, target: Target): boolean {
  const rendered = renderSnapshot(format, markdown, target);
  return (format.shownText?.(rendered) ?? rendered).trim() !== "";
}

/**
 * `rendered` when the platform takes it whole (`measure` counts as the platform does), else `fallback`: what a part
 * whose markup grew past the limit shows instead, the part's own text made safe, which never grows.
 */
export function withinLimit(rendered: string, limit: number, fallback: () => string, measure = length): string {
  return measure(rendered) <= limit ? rendered : fallback();
}

const length = (text: string) => text.length;
