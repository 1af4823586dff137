/**
 * @module
 * A comment that names a file (lib/keys.ts, ./docs-links.test.ts, docs/testing.md, a folder: test/fixtures/) sends
 * the reader there; a file renamed or moved leaves the comment pointing nowhere, and nothing else would notice.
 * This test reads every comment in the code (lib/, functions/, dev/, bench/, test/ and vitest.config.ts) and fails
 * on a named path that does not exist. A pattern (test/unit/format-*.test.ts, a `<platform>` placeholder) names no
 * one file and is left alone.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const REPO_ROOT = resolve(import.meta.dirname, "../..");
const CODE_FOLDERS = ["lib", "functions", "dev", "bench", "test"];
/** Recorded payloads and generated data: no comments of ours. */
const SKIPPED_FOLDERS = new Set(["node_modules", "fixtures", "data"]);
const CODE_FILE = /\.(ts|mjs|js)$/;
/**
 * A path from the repository's root (its first folder one of ours) or relative to the file (./, ../), ending in a
 * name. Not one preceded by a path character (a URL's path, `@scope/pkg/x.ts`) nor followed by one that makes it a
 * pattern (`*`, `{`, `<`) or longer (`-`, a word character).
 */
const RELATIVE_PATH = String.raw`(?:\.\.?/)+[\w./-]*[\w-]\.[a-z]+`;
const ROOTED_PATH = String.raw`(?:lib|functions|dev|bench|test|docs|\.ci)/[\w./-]*[\w-](?:\.[a-z]+)?/?`;
const FILE_REFERENCE = new RegExp(String.raw`(?<![\w./@:-])(${RELATIVE_PATH}|${ROOTED_PATH})(?![\w*{<-])`, "g");
/** A `//` that starts a comment: at the line's start or after a space, so not a URL's `https://`. */
const LINE_COMMENT = /(?:^|\s)\/\/\s(.*)$/;

function codeFiles(): string[] {
  const found: string[] = ["vitest.config.ts"];
  const walk = (folder: string) => {
    for (const entry of readdirSync(join(REPO_ROOT, folder), { withFileTypes: true })) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) walk(path);
      } else if (CODE_FILE.test(entry.name)) found.push(path);
    }
  };
  CODE_FOLDERS.forEach(walk);
  return found.sort();
}

/** The comment text on a line: a doc comment's or block comment's line, or what follows `//`. */
function commentOf(line: string): string | null {
  const text = line.trimStart();
  if (text.startsWith("*") || text.startsWith("/*") || text.startsWith("//")) return text;
  return LINE_COMMENT.exec(line)?.[1] ?? null;
}

/** Every path a comment names, as `file:line path`, with whether it exists. */
function references(file: string): { where: string; exists: boolean }[] {
  return readFileSync(join(REPO_ROOT, file), "utf8")
    .split("\n")
    .flatMap((line, index) =>
      [...(commentOf(line) ?? "").matchAll(FILE_REFERENCE)].map((match) => {
        // A sentence's full stop is not part of the name.
        const path = (match[1] ?? "").replace(/\.$/, "");
        const target = path.startsWith(".") ? join(dirname(file), path) : path;
        return { where: `${file}:${index + 1} ${path}`, exists: existsSync(join(REPO_ROOT, target)) };
      }),
    );
}

describe("file references in comments", () => {
  const all = codeFiles().flatMap(references);

  it("are read from the code (hundreds of them)", () => {
    expect(all.length).toBeGreaterThan(500);
  });

  it("each name a file or folder that exists", () => {
    expect(all.filter((r) => !r.exists).map((r) => r.where)).toEqual([]);
  });
});
