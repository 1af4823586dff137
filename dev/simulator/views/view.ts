/**
 * @module
 * What the simulator page shows of a message: a small tree of the elements a platform's client would draw (bold,
 * a link, a code block, a quote, a list, …), made here from what the Worker sent, in the platform's own markup
 * (./markdown-view.ts, ./mrkdwn-view.ts, ./telegram-view.ts), and drawn by the page with a fixed set of elements
 * (public/render.js), never as HTML. Controls a message carries (Block Kit buttons, Discord components, Telegram
 * keyboards) are views too: a new kind of node here and its drawing there.
 */

/** The elements the page draws; anything else a view holds is its text. */
export type ViewTag =
  | "p"
  | "h"
  | "b"
  | "i"
  | "s"
  | "u"
  | "code"
  | "pre"
  | "quote"
  | "ul"
  | "li"
  | "a"
  | "spoiler"
  | "mention";

export type ViewNode = string | { tag: ViewTag; children: ViewNode[]; href?: string };

export const node = (tag: ViewTag, children: ViewNode[], href?: string): ViewNode =>
  href === undefined ? { tag, children } : { tag, children, href };

/** A platform's text shown as it is (SMS, or a text the page cannot read otherwise). */
export const plainView = (text: string): ViewNode[] => [node("p", [text])];
