/**
 * @module
 * Every URL in a text the model wrote shown inert: without its scheme and in a code span, so that no platform makes
 * it a link (Slack and Discord link a bare `https://…`, and Slack a bare `www.…` or `host.tld/path`, but none inside
 * code). A Markdown link `[label](url)`, an autolink `<url>` and a Slack-style `<url|label>` keep their label, the
 * target shown inert beside it. Inside code the scheme is dropped only. Where a job posts links of its own (the
 * catch-up's citations, lib/catch-up/step.ts), it adds them after this, so they are the only links.
 */

/** What a URL goes on with, and what it ends with: not a space, nor what ends a sentence around it. */
const REST = String.raw`[^\s<>()\[\]{}\x60"']*[^\s<>()\[\]{}\x60"'.,:;!?*_~]`;
/** A scheme and what follows. */
const SCHEMED = String.raw`[a-z][a-z0-9+.-]*:\/\/${REST}`;
/** `www.host…`, or a host name with a path (`evil.example/login`): both linked by Slack without a scheme. */
const SCHEMELESS = String.raw`(?:www\.|(?:[a-z0-9-]+\.)+[a-z]{2,}\/)${REST}`;
const URL_SOURCE = `(?<![\\p{L}\\p{N}.@/-])(?:${SCHEMED}|${SCHEMELESS})`;
const URL = new RegExp(URL_SOURCE, "giu");
const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const MARKDOWN_LINK = /!?\[([^\]\n]*)\]\(\s*<?((?:[a-z][a-z0-9+.-]*:|www\.)[^\s)>]*)>?(?:\s+"[^"\n]*")?\s*\)/gi;
const ANGLE_LINK = /<((?:[a-z][a-z0-9+.-]*:\/\/|mailto:)[^\s<>|]+)(?:\|([^<>\n]*))?>/gi;
/** A fenced code block (its fence to the closing one, or to the end), or an inline code span. */
const CODE = /^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\1[^\n]*$|(?![\s\S]))|(`+)[^`][\s\S]*?\2(?!`)/gm;
/** Holds a shown link's place while the rest of the text is read (a private-use character no chat text has). */
const HELD = "\uE000";

export function inertUrls(text: string): string {
  let out = "";
  let at = 0;
  for (const code of text.matchAll(CODE)) {
    out += inertProse(text.slice(at, code.index));
    out += code[0].replace(URL, (url) => url.replace(SCHEME, ""));
    at = code.index + code[0].length;
  }
  return out + inertProse(text.slice(at));
}

/** A URL as code without its scheme: `evil.example/login`. */
const inert = (url: string): string => `\`${url.replace(SCHEME, "").replace(/^mailto:/i, "")}\``;

function inertProse(text: string): string {
  // Links with a label first: their target must not be read again as a bare URL.
  const marked: string[] = [];
  const hold = (shown: string): string => `${HELD}${marked.push(shown) - 1}${HELD}`;
  return text
    .replaceAll(HELD, "")
    .replace(MARKDOWN_LINK, (_link, label: string, target: string) => hold(labelled(label, target)))
    .replace(ANGLE_LINK, (_link, target: string, label?: string) => hold(labelled(label ?? "", target)))
    .replace(URL, (url) => hold(inert(url)))
    .replace(new RegExp(`${HELD}(\\d+)${HELD}`, "g"), (_held, n: string) => marked[Number(n)]!);
}

function labelled(label: string, target: string): string {
  const shown = label.trim();
  if (shown === "" || shown === target || shown === target.replace(SCHEME, "")) return inert(target);
  return `${shown.replace(URL, inert)} (${inert(target)})`;
}
