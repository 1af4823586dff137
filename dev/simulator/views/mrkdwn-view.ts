/**
 * @module
 * A Slack `text` (mrkdwn: what people type, and what a message posted with `text` holds) as Slack draws it
 * (docs.slack.dev "Formatting message text"): `*bold*`, `_italic_`, `~strike~`, `` `code` ``, ```` ``` ```` blocks,
 * `>` quotes, `<url|label>` links, `<@U…>` mentions by name, `<!here>`, and the escapes `&lt; &gt; &amp;` as the
 * characters. A mark counts only at a word's edge, as in Slack: `snake_case` stays as written.
 */
import { node, type ViewNode } from "./view.ts";

const INLINE = /`([^`\n]+)`|<([^<>\n]+)>|(?<![\p{L}\p{N}])([*_~])(?=\S)([^\n]*?\S)\3(?![\p{L}\p{N}])/u;
const TAGS = { "*": "b", _: "i", "~": "s" } as const;
const ENTITIES: Readonly<Record<string, string>> = { "&lt;": "<", "&gt;": ">", "&amp;": "&" };

/** Who a `<@U…>` mention is (a person's or the bot's name), by Slack user id; undefined shows the id. */
export type NameOf = (user: string) => string | undefined;

export function mrkdwnView(text: string, names: NameOf = () => undefined): ViewNode[] {
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
    const quoted = lines[i]!.startsWith(">");
    const group: string[] = [];
    for (; i < lines.length && !lines[i]!.startsWith("```") && lines[i]!.startsWith(">") === quoted; i++)
      group.push(quoted ? lines[i]!.replace(/^>\s?/, "") : lines[i]!);
    const inline = inlineView(group.join("\n"), names);
    blocks.push(quoted ? node("quote", [node("p", inline)]) : node("p", inline));
  }
  return blocks;
}

function inlineView(text: string, names: NameOf): ViewNode[] {
  const out: ViewNode[] = [];
  let rest = text;
  for (let match = rest.match(INLINE); match; match = rest.match(INLINE)) {
    if (match.index! > 0) out.push(decode(rest.slice(0, match.index)));
    const [whole, code, token, mark, inner] = match;
    if (code !== undefined) out.push(node("code", [decode(code)]));
    else if (token !== undefined) out.push(tokenView(token, names));
    else out.push(node(TAGS[mark as keyof typeof TAGS], inlineView(inner!, names)));
    rest = rest.slice(match.index! + whole.length);
  }
  if (rest) out.push(decode(rest));
  return out;
}

/** What Slack draws for `<…>`: a mention, a channel, a broadcast, or a link. */
function tokenView(token: string, names: NameOf): ViewNode {
  const [target = "", label] = token.split("|", 2);
  if (target.startsWith("@")) return node("mention", [`@${label ?? names(target.slice(1)) ?? target.slice(1)}`]);
  if (target.startsWith("#")) return node("mention", [`#${label ?? target.slice(1)}`]);
  if (target.startsWith("!")) return node("mention", [`@${label ?? target.slice(1)}`]);
  return node("a", [decode(label ?? target)], target);
}

function decode(text: string): string {
  return text.replace(/&(?:lt|gt|amp);/g, (e) => ENTITIES[e]!);
}
