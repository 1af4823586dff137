/**
 * @module
 * A Slack `text` (mrkdwn: what people type, and what a message posted with `text` holds) as Slack draws it
 * (docs.slack.dev "Formatting message text"): `*bold*`, `_italic_`, `~strike~`, `` `code` ``, ```` ``` ```` blocks,
 * `>` quotes, `<url|label>` links, `<@U…>` mentions by name, `<!here>`, and the escapes `&lt; &gt; &amp;` as the
 * characters. A mark counts only at a word's edge, as in Slack: `snake_case` stays as written.
 * Google Chat's text format is the same family (developers.google.com/workspace/chat/format-messages: `*bold*`,
 * `_italic_`, `~strike~`, `` `code` ``, ```` ``` ```` blocks, `<url|text>` links, `<users/…>` mentions), without
 * quotes or escapes: `googleChatTextView`.
 */
import { node, type ViewNode } from "./view.ts";

const INLINE = /`([^`\n]+)`|<([^<>\n]+)>|(?<![\p{L}\p{N}])([*_~])(?=\S)([^\n]*?\S)\3(?![\p{L}\p{N}])/u;
const TAGS = { "*": "b", _: "i", "~": "s" } as const;
const ENTITIES: Readonly<Record<string, string>> = { "&lt;": "<", "&gt;": ">", "&amp;": "&" };

/** Who a `<@U…>` mention is (a person's or the bot's name), by Slack user id; undefined shows the id. */
export type NameOf = (user: string) => string | undefined;

/** How a client of this family reads: whether `>` quotes and `&lt;` escapes are drawn. */
interface MarksClient {
  quotes: boolean;
  decodesEntities: boolean;
}
const SLACK: MarksClient = { quotes: true, decodesEntities: true };
const GOOGLE_CHAT: MarksClient = { quotes: false, decodesEntities: false };

/** A Google Chat message's text as Chat draws it; `<users/…>` mentions by name. */
export const googleChatTextView = (text: string, names: NameOf = () => undefined): ViewNode[] =>
  marksView(text, names, GOOGLE_CHAT);

export function mrkdwnView(text: string, names: NameOf = () => undefined): ViewNode[] {
  return marksView(text, names, SLACK);
}

function marksView(text: string, names: NameOf, client: MarksClient): ViewNode[] {
  const decode = client.decodesEntities ? decodeEntities : (t: string) => t;
  const blocks: ViewNode[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; ) {
    if (lines[i]!.startsWith("```")) {
      // A block ends on the line that ends with ``` (the opening one too, after its fence); unclosed, at the end.
      let end = i;
      const closes = (k: number) => (k === i ? lines[k]!.length > 3 : true) && lines[k]!.endsWith("```");
      while (end < lines.length - 1 && !closes(end)) end += 1;
      const block = lines.slice(i, end + 1).join("\n");
      blocks.push(node("pre", [decode(block.replace(/^```\n?/, "").replace(/\n?```$/, ""))]));
      i = end + 1;
      continue;
    }
    const quoted = client.quotes && lines[i]!.startsWith(">");
    const group: string[] = [];
    const isQuote = (line: string) => client.quotes && line.startsWith(">");
    for (; i < lines.length && !lines[i]!.startsWith("```") && isQuote(lines[i]!) === quoted; i++)
      group.push(quoted ? lines[i]!.replace(/^>\s?/, "") : lines[i]!);
    const inline = inlineView(group.join("\n"), names, decode);
    blocks.push(quoted ? node("quote", [node("p", inline)]) : node("p", inline));
  }
  return blocks;
}

function inlineView(text: string, names: NameOf, decode: (text: string) => string): ViewNode[] {
  const out: ViewNode[] = [];
  let rest = text;
  for (let match = rest.match(INLINE); match; match = rest.match(INLINE)) {
    if (match.index! > 0) out.push(decode(rest.slice(0, match.index)));
    const [whole, code, token, mark, inner] = match;
    if (code !== undefined) out.push(node("code", [decode(code)]));
    else if (token !== undefined) out.push(tokenView(token, names, decode));
    else out.push(node(TAGS[mark as keyof typeof TAGS], inlineView(inner!, names, decode)));
    rest = rest.slice(match.index! + whole.length);
  }
  if (rest) out.push(decode(rest));
  return out;
}

/** What Slack draws for `<…>`: a mention, a channel, a broadcast, or a link; Google Chat a `users/…` mention. */
function tokenView(token: string, names: NameOf, decode: (text: string) => string): ViewNode {
  const [target = "", label] = token.split("|", 2);
  if (target.startsWith("users/")) return node("mention", [`@${names(target) ?? target.slice("users/".length)}`]);
  if (target.startsWith("@")) return node("mention", [`@${label ?? names(target.slice(1)) ?? target.slice(1)}`]);
  if (target.startsWith("#")) return node("mention", [`#${label ?? target.slice(1)}`]);
  if (target.startsWith("!")) return node("mention", [`@${label ?? target.slice(1)}`]);
  return node("a", [decode(label ?? target)], target);
}

function decodeEntities(text: string): string {
  return text.replace(/&(?:lt|gt|amp);/g, (e) => ENTITIES[e]!);
}
