import { describe, expect, it } from "vitest";
import { splitText } from "../../lib/text/split.ts";

const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe("splitText", () => {
  it("keeps a short answer as one message, trimmed", () => {
    expect(splitText("  Hello there.\n", 4000)).toEqual(["Hello there."]);
  });

  it("sends nothing for an empty or blank answer", () => {
    expect(splitText("", 100)).toEqual([]);
    expect(splitText(" \n\t ", 100)).toEqual([]);
  });

  it("keeps a text of exactly the limit whole", () => {
    const text = "a".repeat(50);
    expect(splitText(text, 50)).toEqual([text]);
  });

  it("cuts between paragraphs when a paragraph break is close enough to the limit", () => {
    const first = `First paragraph. ${"word ".repeat(10).trim()}`;
    const second = `Second paragraph. ${"more ".repeat(10).trim()}`;
    const chunks = splitText(`${first}\n\n${second}`, first.length + 20);
    expect(chunks).toEqual([first, second]);
  });

  it("does not cut at a break that would leave a tiny first message", () => {
    const text = `Hi.\n\n${"word ".repeat(30).trim()}`;
    const chunks = splitText(text, 100);
    expect(chunks[0]!.startsWith("Hi.\n\nword")).toBe(true);
    expect(chunks[0]!.length).toBeGreaterThanOrEqual(50);
  });

  it("cuts after a sentence rather than inside one", () => {
    const text = "The deploy starts at noon. Everyone should check the dashboard before it begins today.";
    const chunks = splitText(text, 50);
    expect(chunks[0]).toBe("The deploy starts at noon.");
    expect(chunks.join(" ")).toBe(text);
  });

  it("cuts after CJK sentence punctuation that has no space after it", () => {
    const text = "今日はデプロイの日です。みなさんダッシュボードを確認してください。よろしくお願いします。";
    const chunks = splitText(text, 40);
    expect(chunks[0]!.endsWith("。")).toBe(true);
    expect(chunks.join("")).toBe(text);
  });

  it("cuts between words when a sentence is longer than the limit", () => {
    const text = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma";
    const chunks = splitText(text, 25);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(25);
      expect(chunk).toBe(chunk.trim());
    }
    expect(chunks.flatMap(words)).toEqual(words(text));
  });

  it("hard-cuts a word longer than the limit without losing a character", () => {
    const text = "x".repeat(95);
    const chunks = splitText(text, 40);
    expect(chunks.map((c) => c.length)).toEqual([40, 40, 15]);
  });

  it("never splits an emoji in two", () => {
    const text = "😀".repeat(30); // 60 UTF-16 units, no break anywhere
    const chunks = splitText(text, 7);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(7);
      expect(chunk).toMatch(/^(?:😀)+$/u);
    }
    expect(chunks.join("")).toBe(text);
  });

  it("keeps every chunk within the limit and every word in order on a long mixed answer", () => {
    const paragraph = (i: number) =>
      `Paragraph ${i}: ` +
      Array.from({ length: 40 + (i % 7) * 11 }, (_, j) => (j % 9 === 8 ? `end${j}.` : `w${i}x${j}`)).join(" ");
    const text = Array.from({ length: 60 }, (_, i) => paragraph(i)).join("\n\n");
    for (const limit of [4000, 2000, 1600, 300]) {
      const chunks = splitText(text, limit);
      expect(chunks.every((c) => c.length > 0 && c.length <= limit)).toBe(true);
      expect(chunks.flatMap(words)).toEqual(words(text));
    }
  });

  it("closes a code block cut in two and opens it again, with its language, in the next chunk", () => {
    const code = Array.from({ length: 60 }, (_, i) => `const value${i} = compute(${i});`).join("\n");
    const text = `Here is the script:\n\n\`\`\`ts\n${code}\n\`\`\`\n\nRun it twice.`;
    const chunks = splitText(text, 600);
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(600);
      // Every chunk holds whole code blocks: as many fences open as close.
      expect((chunk.match(/^```/gm) ?? []).length % 2).toBe(0);
    }
    expect(chunks[1]!.startsWith("```ts\n")).toBe(true);
    expect(chunks.join("\n").replace(/\n```\n```ts/g, "")).toContain("const value59 = compute(59);");
  });
});
