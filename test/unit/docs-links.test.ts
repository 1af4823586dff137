/**
 * @module
 * The README is a short door and docs/ holds the rest, so readers move between pages by links. A page renamed or a
 * heading reworded breaks those links silently on GitHub (a missing anchor just opens the page at its top): this
 * test reads README.md and every page under docs/ and fails on a relative link to a file that does not exist, on a
 * `#anchor` the target page has no heading for, and on a README that has grown past its door's size.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const REPO_ROOT = resolve(import.meta.dirname, "../..");
const README = "README.md";
const DOCS = "docs";
/** The door stays one screenful of what Parley is, how to run it, and where the rest is. */
const README_MAX_LINES = 200;

/** README.md and every Markdown page under docs/, as paths from the repository's root. */
function documentationPages(): string[] {
  const pages = readdirSync(join(REPO_ROOT, DOCS), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".md"))
    .map((name) => join(DOCS, name).split("\\").join("/"));
  return [README, ...pages.sort()];
}

/** The page's lines with every fenced code block blanked (kept as empty lines, so line numbers stay right). */
function linesOutsideFences(markdown: string): string[] {
  let fence: string | null = null;
  return markdown.split("\n").map((line) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && marker) {
      fence = marker;
      return "";
    }
    if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      return "";
    }
    return line;
  });
}

/**
 * GitHub's id for a heading (github-slugger, which github.com uses): the heading's text as rendered (a link shows
 * its text), lower-cased, every character that is not a letter, mark, digit, `_`, `-` or space dropped, and each
 * space turned into `-`.
 */
function headingAnchor(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a page's headings give it; a repeated heading's anchor gets `-1`, `-2`, … as on GitHub. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of linesOutsideFences(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = headingAnchor(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

interface Link {
  page: string;
  line: number;
  target: string;
}

/** The relative links and images of a page (`[text](target)`, `![alt](target)`, `[name]: target`), code left out. */
function relativeLinks(page: string, markdown: string): Link[] {
  const prose = linesOutsideFences(markdown)
    .map((line) => line.replace(/(`+)[^`]*?\1/g, (code) => " ".repeat(code.length)))
    .join("\n");
  const links: Link[] = [];
  const lineOf = (index: number) => prose.slice(0, index).split("\n").length;
  const inline = /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^()\s<>]+)>?(?:\s+"[^"]*")?\s*\)/g;
  const reference = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm;
  for (const pattern of [inline, reference]) {
    for (const match of prose.matchAll(pattern)) {
      const target = match[1] ?? "";
      // An absolute URL (https:, mailto:) or a protocol-relative one is not the repository's to check.
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) continue;
      links.push({ page, line: lineOf(match.index), target });
    }
  }
  return links;
}

/** What is wrong with one link, or null when it leads where it says. */
function brokenLink(link: Link, read: (path: string) => string | null): string | null {
  const [pathPart = "", anchor] = link.target.split("#", 2);
  const path =
    pathPart === "" ? link.page : relative(REPO_ROOT, resolve(REPO_ROOT, dirname(link.page), decodeURI(pathPart)));
  const where = `${link.page}:${link.line} → ${link.target}`;
  if (path.startsWith("..") || !existsSync(join(REPO_ROOT, path))) return `${where}: no file ${path}`;
  if (anchor === undefined) return null;
  if (!path.endsWith(".md")) return `${where}: an anchor into ${path}, which has no headings`;
  const text = read(path);
  if (text === null) return `${where}: ${path} is a folder`;
  return headingAnchors(text).has(anchor) ? null : `${where}: ${path} has no heading whose anchor is #${anchor}`;
}

function readPage(path: string): string | null {
  try {
    return readFileSync(join(REPO_ROOT, path), "utf8");
  } catch {
    return null;
  }
}

describe("the README and docs/ link to what exists", () => {
  const pages = documentationPages();

  it("finds the README and the pages under docs/", () => {
    expect(pages[0]).toBe(README);
    expect(pages).toContain("docs/benchmarks.md");
    expect(pages.some((page) => page.startsWith("docs/platforms/"))).toBe(true);
  });

  it("keeps the README within 200 lines", () => {
    const lines = (readPage(README) ?? "").replace(/\n$/, "").split("\n").length;
    expect(lines, `README.md has ${lines} lines; move the detail into docs/`).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it("every relative link leads to a file that exists, and every #anchor to a heading the target has", () => {
    const links = pages.flatMap((page) => relativeLinks(page, readPage(page) ?? ""));
    expect(links.length).toBeGreaterThan(pages.length);
    expect(links.map((link) => brokenLink(link, readPage)).filter((problem) => problem !== null)).toEqual([]);
  });

  it("every page under docs/ can be reached from the README's map", () => {
    const fromReadme = new Set(
      relativeLinks(README, readPage(README) ?? "").map((link) => resolve(REPO_ROOT, link.target.split("#")[0] ?? "")),
    );
    const unreachable = pages.slice(1).filter((page) => !fromReadme.has(resolve(REPO_ROOT, page)));
    expect(unreachable).toEqual([]);
  });
});

describe("what the check itself reads", () => {
  it("makes heading anchors as GitHub does", () => {
    expect(headingAnchor("Quick start")).toBe("quick-start");
    expect(headingAnchor("The promises under random faults (`bench:chaos`)")).toBe(
      "the-promises-under-random-faults-benchchaos",
    );
    expect(headingAnchor('What "forget me" removes, and what stays')).toBe("what-forget-me-removes-and-what-stays");
    expect(headingAnchor("Within the platforms' rate limits")).toBe("within-the-platforms-rate-limits");
    expect(headingAnchor("Slack: many workspaces, step 2 → 3")).toBe("slack-many-workspaces-step-2--3");
    expect(headingAnchor("[The admin view](deploying.md) and_more")).toBe("the-admin-view-and_more");
    expect([...headingAnchors("# Notes\n\n## Setup\n\n## Setup\n\n```sh\n# not a heading\n```\n")]).toEqual([
      "notes",
      "setup",
      "setup-1",
    ]);
  });

  it("finds links in prose, images and references, and none in code", () => {
    const page = [
      "See [the page](docs/a.md#part) and ![a picture,",
      "over two lines](docs/b.png).",
      "`[code](docs/not-a-link.md)` and [out](https://example.com/x.md).",
      "```",
      "[fenced](docs/not-either.md)",
      "```",
      "[ref]: docs/c.md",
    ].join("\n");
    expect(relativeLinks("README.md", page)).toEqual([
      { page: "README.md", line: 1, target: "docs/a.md#part" },
      { page: "README.md", line: 1, target: "docs/b.png" },
      { page: "README.md", line: 7, target: "docs/c.md" },
    ]);
  });

  it("reports a missing file, a missing heading and an anchor into a file without headings", () => {
    const read = (path: string) => (path === README ? "# Parley\n\n## Quick start\n" : readPage(path));
    const broken = (target: string) => brokenLink({ page: README, line: 1, target }, read);
    expect(broken("#quick-start")).toBeNull();
    expect(broken("docs/no-such-page.md")).toMatch(/no file docs\/no-such-page\.md/);
    expect(broken("#quick-start-1")).toMatch(/no heading whose anchor is #quick-start-1/);
    expect(broken("#Quick-Start")).toMatch(/no heading/);
    expect(broken("package.json#scripts")).toMatch(/has no headings/);
    expect(broken("../outside.md")).toMatch(/no file/);
  });
});
