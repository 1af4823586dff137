import { describe, expect, it } from "vitest";
import { foldCase, normalizeWords } from "../../lib/text/normalize.ts";

describe("comparing text the way people read it", () => {
  it("ignores case and accents, and keeps punctuation for names that carry it", () => {
    expect(foldCase("Ça VA, Zoë?")).toBe("ca va, zoe?");
    expect(foldCase("[Bar_]")).toBe("[bar_]");
  });

  it("reduces a phrase to its words, whatever the punctuation and spacing", () => {
    expect(normalizeWords("  Forget   me!! ")).toBe("forget me");
    expect(normalizeWords("Start-over…")).toBe("start over");
    expect(normalizeWords("Alice lives in Paris.")).toBe(normalizeWords("alice\tlives  in PARÍS"));
    expect(normalizeWords("?!")).toBe("");
  });
});
