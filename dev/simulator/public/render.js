// How the page draws one message: its view (what the platform's client draws of what the Worker sent, made by the
// simulator server: dev/simulator/views/), who sees it when only one person does, and its reactions. Each part is
// a drawer in MESSAGE_PARTS, so that a message's controls (Block Kit buttons, Discord components, Telegram
// keyboards) are one more drawer when messages carry them. Only these elements are made, never HTML from a message.
import { el } from "./view.js";

/** The element each view node is drawn as (a heading is bold on Slack, larger on Discord: style.css). */
const TAGS = {
  p: "div",
  h: "strong",
  b: "strong",
  i: "em",
  s: "s",
  u: "u",
  code: "code",
  pre: "pre",
  quote: "blockquote",
  ul: "ul",
  li: "li",
  a: "a",
  spoiler: "span",
  mention: "span",
};
const LINKABLE = /^(https?:|mailto:)/i;

/** A view (a list of nodes: text, or {tag, children, href}) as DOM nodes. */
export function drawView(nodes) {
  return nodes.map((n) => (typeof n === "string" ? document.createTextNode(n) : drawNode(n)));
}

function drawNode(n) {
  const attrs = { class: `v-${n.tag}` };
  if (n.tag === "a" && LINKABLE.test(n.href ?? ""))
    Object.assign(attrs, { href: n.href, target: "_blank", rel: "noopener noreferrer", title: n.href });
  return el(TAGS[n.tag] ?? "span", attrs, ...drawView(n.children ?? []));
}

/** The parts of a message below its author, in order; each returns nodes, or nothing for a message without it. */
export const MESSAGE_PARTS = [
  (entry) => el("div", { class: "text", "data-testid": "message-text" }, ...drawView(entry.view ?? [entry.text])),
  (entry) =>
    entry.visibleTo ? el("span", { class: "only-you", "data-testid": "only-you" }, "Only visible to you") : null,
  (entry) =>
    entry.reactions?.length
      ? el(
          "div",
          { class: "reactions" },
          ...entry.reactions.map((r) =>
            el(
              "span",
              { class: "reaction", "data-testid": "reaction", "data-emoji": r.emoji, title: r.by.join(", ") },
              `${r.emoji} ${r.by.join(", ")}`,
            ),
          ),
        )
      : null,
];

export function drawMessageParts(entry) {
  return MESSAGE_PARTS.map((part) => part(entry)).filter(Boolean);
}
