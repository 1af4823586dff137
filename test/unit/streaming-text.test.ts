/**
 * @module
 * The text side of streaming: each snapshot of an answer being written reads as finished Markdown, and the first
 * words decide whether the answer is [SKIP] before anything is shown.
 */
import { describe, expect, it } from "vitest";
import { answerStart } from "../../lib/llm/stream-reply.ts";
import { closeMarkdown } from "../../lib/text/close-markdown.ts";

describe("a snapshot of an answer still being written", () => {
  it("closes an open code fence, and the next snapshot simply goes on", () => {
    const partial = "Try this:\n\n```ts\nconst a = 1;";
    expect(closeMarkdown(partial)).toBe("Try this:\n\n```ts\nconst a = 1;\n```");
    const later = `${partial}\nconst b = 2;\n\`\`\`\nDone.`;
    expect(closeMarkdown(later)).toBe(later);
  });

  it("shows nothing of a mark that has nothing after it yet, so an answer opening in bold never shows ****", () => {
    expect(closeMarkdown("**")).toBe("");
    expect(closeMarkdown("Here it is: **")).toBe("Here it is:");
    expect(closeMarkdown("**R")).toBe("**R**");
    expect(closeMarkdown("Run this:\n\n```")).toBe("Run this:");
  });

  it("closes open bold, strikethrough and inline code, but not marks inside code", () => {
    expect(closeMarkdown("This is **very")).toBe("This is **very**");
    expect(closeMarkdown("Use `npm ")).toBe("Use `npm`");
    expect(closeMarkdown("It was ~~wrong")).toBe("It was ~~wrong~~");
    expect(closeMarkdown("Run `a ** b` now")).toBe("Run `a ** b` now");
    expect(closeMarkdown("```\nx ** y")).toBe("```\nx ** y\n```");
  });
});

describe("the first words of a streamed answer", () => {
  it("wait while they could still be [SKIP] or an echoed name", () => {
    expect(answerStart("", "Parley")).toEqual({ kind: "wait" });
    expect(answerStart(" [SK", "Parley")).toEqual({ kind: "wait" });
    expect(answerStart("Parl", "Parley")).toEqual({ kind: "wait" });
    expect(answerStart("Parley: [S", "Parley")).toEqual({ kind: "wait" });
  });

  it("are [SKIP], or the answer starting after any echoed name", () => {
    expect(answerStart("[skip] not me", "Parley")).toEqual({ kind: "skip" });
    expect(answerStart("Parley: [SKIP]", "Parley")).toEqual({ kind: "skip" });
    expect(answerStart("Parley: Hello", "Parley")).toEqual({ kind: "answer", offset: 8 });
    expect(answerStart("  Sure", "Parley")).toEqual({ kind: "answer", offset: 2 });
    expect(answerStart("[link](x)", "Parley")).toEqual({ kind: "answer", offset: 0 });
  });
});
