import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

/** The top-level lines and blocks that decide how the Worker runs, in file order. */
function runtimeSettings(path: string): string[] {
  const lines = readFileSync(resolve(import.meta.dirname, path), "utf8").split("\n");
  const kept: string[] = [];
  let block: string | null = null;
  for (const line of lines) {
    if (line.startsWith("[")) block = line;
    if (line.trim() === "" || line.startsWith("#")) continue;
    const topLevel = block === null && /^(compatibility_date|compatibility_flags)\s*=/.test(line);
    const runtimeBlock = block === "[[durable_objects.bindings]]" || block === "[[migrations]]";
    if (topLevel || runtimeBlock) kept.push(line);
  }
  return kept;
}

describe("the Worker tests' wrangler config", () => {
  it("runs the Worker with the same compatibility settings, Durable Objects and migrations as the real one", () => {
    const real = runtimeSettings("../../wrangler.toml");
    expect(real.length).toBeGreaterThan(4);
    expect(runtimeSettings("../wrangler.toml")).toEqual(real);
  });
});
