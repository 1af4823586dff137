/**
 * @module
 * A Telegram message as a client draws it: its text and the entities Telegram made of what the bot sent (the fake
 * reads `parse_mode: "HTML"` as the server does: dev/fakes/telegram/html.ts), each a range of UTF-16 units, nested
 * as the Bot API allows. Text outside any block entity is one paragraph, as a client shows a message.
 */
import { node, type ViewNode, type ViewTag } from "./view.ts";

export interface TelegramEntity {
  type: string;
  offset: number;
  length: number;
  url?: string;
}

const TAGS: Readonly<Record<string, ViewTag>> = {
  bold: "b",
  italic: "i",
  underline: "u",
  strikethrough: "s",
  spoiler: "spoiler",
  code: "code",
  pre: "pre",
  blockquote: "quote",
  expandable_blockquote: "quote",
  text_link: "a",
  mention: "mention",
};

export function telegramView(text: string, entities: readonly TelegramEntity[] = []): ViewNode[] {
  const drawn = entities.filter((e) => TAGS[e.type]).sort((a, b) => a.offset - b.offset || b.length - a.length);
  return [node("p", within(text, drawn, 0, text.length))];
}

/** The text of [from, to) with the entities inside it, outer ones first. */
function within(text: string, entities: readonly TelegramEntity[], from: number, to: number): ViewNode[] {
  const out: ViewNode[] = [];
  let at = from;
  for (let k = 0; k < entities.length; k++) {
    const e = entities[k]!;
    if (e.offset < at || e.offset >= to) continue;
    const end = Math.min(e.offset + e.length, to);
    if (e.offset > at) out.push(text.slice(at, e.offset));
    const inner = entities.slice(k + 1).filter((o) => o.offset >= e.offset && o.offset + o.length <= end);
    out.push(node(TAGS[e.type]!, within(text, inner, e.offset, end), e.type === "text_link" ? e.url : undefined));
    at = end;
  }
  if (at < to) out.push(text.slice(at, to));
  return out;
}
