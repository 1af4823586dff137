/**
 * @module
 * The answer (the model writes Markdown) in Google Chat's own text format, in this one function (docs "Format text
 * in messages": `*bold*`, `_italic_`, `~strikethrough~`, `` `code` ``, fenced code blocks, lists as written; a
 * Markdown link as its words and its address, which Chat links). Code is left as it is. What the model writes in
 * Chat's markup of its own is made inert: a `<users/…>` mention (`<users/all>` notifies everyone in the space) or a
 * `<url|text>` link whose words hide where it goes, its `<` turned into the fullwidth ＜ that Chat does not read.
 * Every rule keeps or shortens the text, so a part cut to the limit before stays within it after.
 */

/** Code blocks and code spans, kept as they are. */
const CODE = /```[\s\S]*?(?:```|$)|`[^`\n]*`/g;
/** Chat's own markup in the model's text: a mention, or a link of its `<url|text>` form. */
const CHAT_MARKUP = /<(?=users\/|https?:|mailto:)/gi;

export function chatText(markdown: string): string {
  let out = "";
  let at = 0;
  for (const code of markdown.matchAll(CODE)) {
    out += prose(markdown.slice(at, code.index)) + code[0];
    at = code.index + code[0].length;
  }
  return out + prose(markdown.slice(at));
}

function prose(text: string): string {
  return (
    text
      .replace(CHAT_MARKUP, "\uFF1C")
      // Italic first, while bold is still doubled: a single `*` pair, not touching another `*`.
      .replace(/(?<![*\w])\*(?![\s*])([^*\n]*?[^\s*])\*(?![*\w])/g, "_$1_")
      .replace(/\*\*(?=\S)([^\n]*?\S)\*\*/g, "*$1*")
      .replace(/(?<!\w)__(?=\S)([^\n]*?\S)__(?!\w)/g, "*$1*")
      .replace(/~~(?=\S)([^\n]*?\S)~~/g, "~$1~")
      // A link shows where it goes: the model's words never hide its address (Chat links the bare URL itself).
      .replace(/\[([^\]\n]+)\]\((https?:\/\/[^\s)]+)\)/g, (_, words: string, url: string) =>
        words === url ? url : `${words} (${url})`,
      )
      .replace(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm, "*$1*")
  );
}
