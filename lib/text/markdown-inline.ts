/**
 * @module
 * The inline half of the model's Markdown (./markdown.ts has the blocks): code spans, links (`[text](url)`, an
 * image's `![alt](url)` as a link to it, `<https://…>` autolinks, and the Slack-style `<url|label>` a model
 * sometimes writes), bold, italic and strikethrough, after CommonMark's flanking rules so that `snake_case` and
 * `2 * 3 * 4` stay as written. Platforms render the nodes into their own markup (lib/platforms/<name>/format.ts).
 */

export type Inline =
  | { t: "text"; text: string }
  | { t: "code"; text: string }
  | { t: "strong" | "em" | "strike"; children: Inline[] }
  | { t: "link"; href: string; children: Inline[] };

/** Only web and mail links are links: a `javascript:` or relative target stays text. */
const LINKABLE = /^(https?:\/\/|mailto:)[^\s<>]+$/i;
const PUNCTUATION = /[!-/:-@[-`{-~\p{P}\p{S}]/u;
/** A bare URL, without the punctuation that usually ends the sentence around it (GFM's autolink extension). */
const BARE_URL = /^https?:\/\/[^\s<>]*[^\s<>.,:;!?'")\]*_~]/;
const AUTOLINK = /^<((?:https?:\/\/|mailto:)[^\s<>|]+)(?:\|([^<>]*))?>/i;

/** A delimiter run (`*`, `_`, `~~`) waiting for its partner, at its place in the output. */
interface Delimiter {
  char: string;
  count: number;
  at: number;
  canOpen: boolean;
  canClose: boolean;
}

export function parseInline(source: string): Inline[] {
  const out: Inline[] = [];
  const delimiters: Delimiter[] = [];
  let text = "";
  const flush = () => {
    if (text) out.push({ t: "text", text });
    text = "";
  };
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === "\\" && i + 1 < source.length && PUNCTUATION.test(source[i + 1]!) && source[i + 1]! < "\u0080") {
      text += source[i + 1];
      i += 2;
      continue;
    }
    if (ch === "`") {
      const run = source.slice(i).match(/^`+/)![0];
      const close = findRun(source, run, i + run.length);
      if (close < 0) {
        text += run;
        i += run.length;
        continue;
      }
      flush();
      out.push({ t: "code", text: trimCode(source.slice(i + run.length, close)) });
      i = close + run.length;
      continue;
    }
    const bare = ch === "h" && !/\w/.test(source[i - 1] ?? " ") ? source.slice(i).match(BARE_URL) : null;
    if (bare) {
      // A bare link is the platform's to show (every one links them): its `_` and `*` are no marks.
      text += bare[0];
      i += bare[0].length;
      continue;
    }
    const link = ch === "[" || (ch === "!" && source[i + 1] === "[") ? linkAt(source, ch === "!" ? i + 1 : i) : null;
    if (link) {
      flush();
      out.push({ t: "link", href: link.href, children: parseInline(link.label || link.href) });
      i = link.end;
      continue;
    }
    const auto = ch === "<" ? source.slice(i).match(AUTOLINK) : null;
    if (auto) {
      flush();
      out.push({ t: "link", href: auto[1]!, children: parseInline(auto[2]?.trim() || auto[1]!) });
      i += auto[0].length;
      continue;
    }
    if (ch === "*" || ch === "_" || (ch === "~" && source[i + 1] === "~")) {
      const run = source.slice(i).match(ch === "*" ? /^\*+/ : ch === "_" ? /^_+/ : /^~+/)![0];
      flush();
      const before = i === 0 ? " " : source[i - 1]!;
      const after = source[i + run.length] ?? " ";
      const { left, right } = flanking(before, after);
      const word = (c: string) => !/\s/.test(c) && !PUNCTUATION.test(c);
      // `_` never opens or closes inside a word; `*` may (CommonMark); `~~` like `*`.
      const canOpen = ch === "_" ? left && !(right && word(before)) : left;
      const canClose = ch === "_" ? right && !(left && word(after)) : right;
      out.push({ t: "text", text: run });
      if (ch !== "~" || run.length === 2)
        delimiters.push({ char: ch, count: run.length, at: out.length - 1, canOpen, canClose });
      i += run.length;
      continue;
    }
    text += ch;
    i += 1;
  }
  flush();
  return merge(pairUp(out, delimiters));
}

/** Whether a run between `before` and `after` is left-flanking (may open) and right-flanking (may close). */
function flanking(before: string, after: string): { left: boolean; right: boolean } {
  const space = (c: string) => /\s/.test(c);
  const punct = (c: string) => PUNCTUATION.test(c);
  const left = !space(after) && (!punct(after) || space(before) || punct(before));
  const right = !space(before) && (!punct(before) || space(after) || punct(after));
  return { left, right };
}

/** Pairs closers with the nearest opener of the same mark, innermost first, wrapping what lies between. */
function pairUp(nodes: Inline[], delimiters: Delimiter[]): Inline[] {
  const marks = new Map<number, { open?: [string, number]; close?: [string, number] }>();
  const open: Delimiter[] = [];
  for (const d of delimiters) {
    let closed = false;
    if (d.canClose) {
      for (let k = open.length - 1; k >= 0; k--) {
        const o = open[k]!;
        if (o.char !== d.char) continue;
        // `***both***` is bold inside italic; otherwise the shorter run says which.
        const n = d.char === "~" ? 2 : Math.min(o.count, d.count, 3);
        marks.set(o.at, { ...marks.get(o.at), open: [d.char, n] });
        marks.set(d.at, { ...marks.get(d.at), close: [d.char, n] });
        open.splice(k);
        closed = true;
        break;
      }
    }
    if (!closed && d.canOpen) open.push(d);
  }
  return build(nodes, marks, 0, nodes.length).nodes;
}

/** Rebuilds nodes[from, to) as a tree: a delimiter run that opens wraps everything up to its closer. */
function build(
  nodes: Inline[],
  marks: Map<number, { open?: [string, number]; close?: [string, number] }>,
  from: number,
  to: number,
): { nodes: Inline[]; next: number } {
  const out: Inline[] = [];
  let i = from;
  while (i < to) {
    const mark = marks.get(i);
    const node = nodes[i]!;
    if (mark?.close && i !== from) return { nodes: out, next: i };
    if (mark?.open && node.t === "text") {
      const [char, n] = mark.open;
      const rest = node.text.length - n;
      if (rest > 0) out.push({ t: "text", text: node.text.slice(0, rest) });
      const inner = build(nodes, marks, i + 1, to);
      const closer = nodes[inner.next];
      const children = merge(inner.nodes);
      if (char === "~") out.push({ t: "strike", children });
      else if (n === 3) out.push({ t: "em", children: [{ t: "strong", children }] });
      else out.push({ t: n === 2 ? "strong" : "em", children });
      const left = closer && closer.t === "text" ? closer.text.length - (marks.get(inner.next)?.close?.[1] ?? 0) : 0;
      if (left > 0) out.push({ t: "text", text: char.repeat(left) });
      i = inner.next + 1;
      continue;
    }
    out.push(node);
    i += 1;
  }
  return { nodes: out, next: i };
}

/** Adjacent text nodes joined. */
function merge(nodes: Inline[]): Inline[] {
  const out: Inline[] = [];
  for (const node of nodes) {
    const last = out[out.length - 1];
    if (node.t === "text" && last?.t === "text") out[out.length - 1] = { t: "text", text: last.text + node.text };
    else if (node.t !== "text" || node.text) out.push(node);
  }
  return out;
}

/** Where the next backtick run exactly `run` long starts at or after `from`; -1 when there is none. */
function findRun(source: string, run: string, from: number): number {
  for (let at = source.indexOf(run, from); at >= 0; at = source.indexOf(run, at + 1)) {
    const longer = source[at + run.length] === "`" || source[at - 1] === "`";
    if (!longer) return at;
    while (source[at + 1] === "`") at += 1;
  }
  return -1;
}

function trimCode(code: string): string {
  const flat = code.replace(/\n/g, " ");
  return /^ .*[^ ].* $/.test(flat) ? flat.slice(1, -1) : flat;
}

/** `[label](href "title")` starting at `at` (its `[`): the label, the target and where it ends; null otherwise. */
function linkAt(source: string, at: number): { label: string; href: string; end: number } | null {
  let depth = 0;
  let close = -1;
  for (let i = at; i < source.length; i++) {
    const ch = source[i];
    if (ch === "\\") i += 1;
    else if (ch === "[") depth += 1;
    else if (ch === "]" && --depth === 0) {
      close = i;
      break;
    }
  }
  if (close < 0 || source[close + 1] !== "(") return null;
  const target = source.slice(close + 2).match(/^\s*<?([^\s()<>]*(?:\([^\s()<>]*\)[^\s()<>]*)*)>?(?:\s+"[^"]*")?\s*\)/);
  if (!target || !LINKABLE.test(target[1]!)) return null;
  return { label: source.slice(at + 1, close), href: target[1]!, end: close + 2 + target[0].length };
}

/** The text a reader sees of `nodes`, without any marks (a table cell, a plain-text platform). */
export function plainText(nodes: readonly Inline[]): string {
  return nodes.map((n) => (n.t === "text" || n.t === "code" ? n.text : plainText(n.children))).join("");
}
