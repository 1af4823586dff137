/**
 * @module
 * A Markdown text as a client that reads Markdown draws it: Slack's markdown block (markdown_text) and Discord's
 * messages. Read with the Worker's own Markdown reader (lib/text/markdown.ts); what the platform does not draw
 * shows as the characters that were sent, as it would there: a table's pipes, a rule's dashes, a deeper heading's
 * hashes on Discord. Slack shows `&lt;`, `&gt;` and `&amp;` as the characters.
 */
import type { Inline } from "../../../lib/text/markdown-inline.ts";
import { parseSourced, type SourcedBlock } from "../../../lib/text/markdown.ts";
import { node, type ViewNode } from "./view.ts";

export interface MarkdownClient {
  /** The deepest heading drawn as one (Discord: 3); deeper ones show their hashes. */
  maxHeading: number;
  /** Whether `&lt;` and its kin show as characters (Slack) or as written (Discord). */
  decodesEntities: boolean;
}

export const SLACK_MARKDOWN: MarkdownClient = { maxHeading: 6, decodesEntities: true };
export const DISCORD_MARKDOWN: MarkdownClient = { maxHeading: 3, decodesEntities: false };
/** Teams draws no headings in a text message (the Worker sends them as bold lines). */
export const TEAMS_MARKDOWN: MarkdownClient = { maxHeading: 0, decodesEntities: false };

export function markdownView(text: string, client: MarkdownClient): ViewNode[] {
  const lines = text.split("\n");
  return parseSourced(text).map((block) => blockView(block, lines.slice(...block.lines).join("\n"), client));
}

function blockView(block: SourcedBlock, source: string, client: MarkdownClient): ViewNode {
  const inline = (nodes: readonly Inline[]) => inlineView(nodes, client);
  switch (block.t) {
    case "paragraph":
      return node("p", inline(block.inlines));
    case "heading":
      return block.level <= client.maxHeading ? node("h", inline(block.inlines)) : node("p", [decoded(source, client)]);
    case "code":
      return node("pre", [decoded(block.text, client)]);
    case "quote":
      return node(
        "quote",
        markdownView(
          source
            .split("\n")
            .map((line) => line.replace(/^ {0,3}> ?/, ""))
            .join("\n"),
          client,
        ),
      );
    case "list":
      // Each item with its own marker (a number, or a bullet by depth), as the clients draw a list as written.
      return node(
        "ul",
        block.items.map((item) => {
          const marker = item.number !== undefined ? `${item.number}. ` : item.depth > 0 ? "◦ " : "• ";
          const box = item.task === undefined ? "" : item.task ? "[x] " : "[ ] ";
          return node("li", [`${"\u2003".repeat(item.depth)}${marker}${box}`, ...inline(item.inlines)]);
        }),
      );
    // Neither client draws these: they show as sent.
    case "table":
    case "rule":
      return node("p", [decoded(source, client)]);
  }
}

function inlineView(nodes: readonly Inline[], client: MarkdownClient): ViewNode[] {
  return nodes.map((n) => {
    switch (n.t) {
      case "text":
        return decoded(n.text, client);
      case "code":
        return node("code", [decoded(n.text, client)]);
      case "strong":
        return node("b", inlineView(n.children, client));
      case "em":
        return node("i", inlineView(n.children, client));
      case "strike":
        return node("s", inlineView(n.children, client));
      case "link":
        return node("a", inlineView(n.children, client), n.href);
    }
    return n satisfies never;
  });
}

const ENTITIES: Readonly<Record<string, string>> = { "&lt;": "<", "&gt;": ">", "&amp;": "&" };

function decoded(text: string, client: MarkdownClient): string {
  return client.decodesEntities ? text.replace(/&(?:lt|gt|amp);/g, (e) => ENTITIES[e]!) : text;
}
