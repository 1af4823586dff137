/**
 * @module
 * The Bot API's `parse_mode: "HTML"` as Telegram's server reads it (core.telegram.org/bots/api#html-style): only
 * the documented tags (`b strong i em u ins s strike del span.tg-spoiler tg-spoiler a[href] code pre blockquote
 * tg-emoji`), a `<pre>`'s language given by a `<code class="language-…">` inside it, the named entities `&lt; &gt;
 * &amp; &quot;` and numeric ones; every other `<` refused. Nesting as the Formatting options say: bold, italic,
 * underline, strikethrough and spoiler may hold and be held by anything but code and pre; blockquotes do not nest;
 * nothing else holds another entity. Refusals in tdlib's words ("can't parse entities: Unsupported start tag
 * \"x\" at byte offset N", "Unexpected end tag …", "Can't find end tag corresponding to start tag \"b\""); a nesting
 * Telegram would quietly drop is refused too, so a renderer that writes one is caught. Offsets count UTF-16 units.
 */
import { badRequest, type BotApiError } from "./errors.ts";

export interface MessageEntity {
  type: string;
  offset: number;
  length: number;
  url?: string;
  language?: string;
  custom_emoji_id?: string;
}

const TAGS: Readonly<Record<string, string>> = {
  b: "bold",
  strong: "bold",
  i: "italic",
  em: "italic",
  u: "underline",
  ins: "underline",
  s: "strikethrough",
  strike: "strikethrough",
  del: "strikethrough",
  "tg-spoiler": "spoiler",
  span: "spoiler",
  a: "text_link",
  code: "code",
  pre: "pre",
  blockquote: "blockquote",
  "tg-emoji": "custom_emoji",
};
/** Entities that may hold, and be held by, any other but code and pre. */
const STYLES: ReadonlySet<string> = new Set(["bold", "italic", "underline", "strikethrough", "spoiler"]);
const NAMED: Readonly<Record<string, string>> = { lt: "<", gt: ">", amp: "&", quot: '"' };

const refuse = (what: string) => badRequest(`can't parse entities: ${what}`);

interface Open {
  tag: string;
  entity: MessageEntity;
}

/** The text and entities Telegram makes of `html`; throws the BotApiError Telegram answers when it cannot. */
export function parseTelegramHtml(html: string): { text: string; entities: MessageEntity[] } {
  let text = "";
  const entities: MessageEntity[] = [];
  const stack: Open[] = [];
  const byteOffset = (at: number) => new TextEncoder().encode(html.slice(0, at)).length;
  let i = 0;
  while (i < html.length) {
    const ch = html[i]!;
    if (ch === "&") {
      const entity = html.slice(i).match(/^&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]+);/);
      const decoded = entity && decodeEntity(entity[1]!);
      // tdlib keeps an `&` that starts no entity it knows as written.
      text += decoded ?? "&";
      i += decoded ? entity![0].length : 1;
      continue;
    }
    if (ch !== "<") {
      text += ch;
      i += 1;
      continue;
    }
    // As tdlib reads a tag: its name runs to a space or `>`, then its attributes to the `>`.
    const closing = html[i + 1] === "/";
    let j = i + (closing ? 2 : 1);
    while (j < html.length && !/\s/.test(html[j]!) && html[j] !== ">") j += 1;
    const end = html.indexOf(">", j);
    if (j >= html.length || end < 0)
      throw refuse(`Unclosed ${closing ? "end" : "start"} tag at byte offset ${byteOffset(i)}`);
    const name = html.slice(i + (closing ? 2 : 1), j).toLowerCase();
    if (closing) {
      const open = stack.pop();
      if (!open) throw refuse(`Unexpected end tag at byte offset ${byteOffset(i)}`);
      if (open.tag !== name)
        throw refuse(
          `Unmatched end tag at byte offset ${byteOffset(i)}, expected "</${open.tag}>", found "</${name}>"`,
        );
      open.entity.length = text.length - open.entity.offset;
      if (open.entity.length > 0) entities.push(open.entity);
      i = end + 1;
      continue;
    }
    const type = TAGS[name];
    const attributes = attributesOf(html.slice(j, end));
    if (!type || (name === "span" && attributes.class !== "tg-spoiler"))
      throw refuse(`Unsupported start tag "${name}" at byte offset ${byteOffset(i)}`);
    const entity = entityOf(type, attributes, stack, byteOffset(i));
    stack.push({ tag: name, entity: { ...entity, offset: text.length } });
    i = end + 1;
  }
  const unclosed = stack.pop();
  if (unclosed) throw refuse(`Can't find end tag corresponding to start tag "${unclosed.tag}"`);
  return { text, entities: merged(entities) };
}

function decodeEntity(name: string): string | null {
  if (name.startsWith("#")) {
    const code = name[1] === "x" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : null;
  }
  return NAMED[name] ?? null;
}

function attributesOf(source: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const [, name, , quoted, bare] of source.matchAll(/([a-zA-Z-]+)(\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"']+)))?/g))
    attributes[name!.toLowerCase()] = (quoted ?? bare ?? "").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
  return attributes;
}

/** The entity a start tag opens inside `stack`, or the refusal of a nesting Telegram does not allow. */
function entityOf(type: string, attributes: Record<string, string>, stack: Open[], at: number): MessageEntity {
  const parent = stack[stack.length - 1]?.entity;
  // `<pre><code class="language-x">`: the code names the pre's language and is no entity of its own.
  if (type === "code" && parent?.type === "pre") {
    const language = attributes.class?.match(/^language-(.+)$/)?.[1];
    if (language) parent.language = language;
    return { type: "pre_code", offset: 0, length: 0 };
  }
  for (const { entity } of stack) {
    const held = entity.type;
    const blocked =
      held === "code" ||
      held === "pre" ||
      held === "pre_code" ||
      (held === "blockquote" && type === "blockquote") ||
      (!STYLES.has(type) && !STYLES.has(held) && held !== "blockquote" && type !== "blockquote");
    if (blocked)
      throw refuse(`the fake refuses a ${type} entity inside ${held} at byte offset ${at} (Telegram drops it)`);
  }
  if (type === "text_link") {
    if (!attributes.href) throw refuse(`the fake refuses an <a> without href at byte offset ${at}`);
    return { type, offset: 0, length: 0, url: attributes.href };
  }
  if (type === "blockquote" && "expandable" in attributes)
    return { type: "expandable_blockquote", offset: 0, length: 0 };
  if (type === "custom_emoji") return { type, offset: 0, length: 0, custom_emoji_id: attributes["emoji-id"] ?? "" };
  return { type, offset: 0, length: 0 };
}

/** Entities in order of their start (outer first), a `<pre><code>`'s inner code left out. */
function merged(entities: MessageEntity[]): MessageEntity[] {
  return entities.filter((e) => e.type !== "pre_code").sort((a, b) => a.offset - b.offset || b.length - a.length);
}

/** Checks `entities` given with a text (no parse mode): each within the text, of a type Telegram knows. */
export function checkEntities(text: string, entities: unknown): MessageEntity[] | BotApiError {
  if (!Array.isArray(entities)) return badRequest("can't parse entities JSON object");
  for (const e of entities as MessageEntity[]) {
    if (typeof e?.offset !== "number" || typeof e.length !== "number" || typeof e.type !== "string")
      return badRequest('can\'t parse MessageEntity: field "type" must be of type String');
    if (e.offset < 0 || e.length <= 0 || e.offset + e.length > text.length)
      return badRequest("entity begins after the end of the text");
  }
  return entities as MessageEntity[];
}
