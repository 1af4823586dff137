import { describe, expect, it } from "vitest";
import { BARE_WORD_TOKENS, SPACED_WORD_TOKENS } from "../../lib/context/o200k-facts.ts";
import { decodeWords, encodeWords } from "../../lib/context/word-list.ts";

describe("front-coded word lists", () => {
  it("give back every word, sorted and once, whatever prefixes they share", () => {
    const words = [
      "internationalization",
      "internationally",
      "international",
      "in",
      "ab",
      "abc",
      "abd",
      "b",
      "ab",
      "Zed",
    ];
    const decoded = decodeWords(encodeWords(words));
    expect(decoded).toEqual([...new Set(words)].sort());
  });

  it("refuse a word the digits could not separate", () => {
    expect(() => encodeWords(["abc", "a1"])).toThrow(/digit-free/);
    expect(() => encodeWords([""])).toThrow(/non-empty/);
  });

  it("hold the 8,000 spaced and 3,000 bare o200k words the generator picked", () => {
    expect(decodeWords(SPACED_WORD_TOKENS)).toHaveLength(8_000);
    expect(decodeWords(BARE_WORD_TOKENS)).toHaveLength(3_000);
  });
});
