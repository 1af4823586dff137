/**
 * @module
 * Biome formats code at 120 columns (biome.json) but leaves strings and comments as written: this holds them to the
 * same width, so every line of the house reads without scrolling. Test titles and fixtures are exempt: a test's name
 * is one sentence, found by searching for it whole.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const WIDTH = 120;
/** Written by a generator, not by hand (dev/o200k-facts.generate.ts). */
const GENERATED = new Set(["lib/context/o200k-facts.ts"]);

function tracked(...patterns: string[]): string[] {
  return execFileSync("git", ["ls-files", ...patterns], { cwd: ROOT, encoding: "utf8" })
    .split("\n")
    .filter((path) => path && !GENERATED.has(path) && !path.startsWith("test/fixtures/"));
}

function over(path: string, keep: (line: string) => boolean): string[] {
  return readFileSync(resolve(ROOT, path), "utf8")
    .split("\n")
    .flatMap((line, i) => ([...line].length > WIDTH && keep(line) ? [`${path}:${i + 1}`] : []));
}

const isComment = (line: string) => /^\s*(\/\/|\*|\/\*)/.test(line);

describe("line width", () => {
  it(`keeps every line of lib/ and functions/ within ${WIDTH} characters`, () => {
    const files = tracked("lib/*.ts", "functions/*.ts").filter((path) => !path.endsWith(".test.ts"));
    expect(files.flatMap((path) => over(path, () => true))).toEqual([]);
  });

  it(`keeps every comment within ${WIDTH} characters`, () => {
    const files = tracked("*.ts", "*.js", "*.mjs");
    expect(files.flatMap((path) => over(path, isComment))).toEqual([]);
  });
});
