import o200k from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { base64ToBytes } from "../../lib/base64.ts";
import type { ChatMessage } from "../../lib/context/chat-message.ts";
import {
  ASCII_PAIR_TOKENS,
  BARE_WORD_TOKENS,
  SPACED_WORD_TOKENS,
  WHITESPACE_TOKENS,
} from "../../lib/context/o200k-facts.ts";
import { countPromptTokens, countTokens } from "../../lib/context/tokens.ts";
import { decodeWords } from "../../lib/context/word-list.ts";
import { ENGLISH, hardText, pick, seededRandom } from "../support/text-corpus.ts";

/** Special-token text in user input is plain text to the API, so the exact reference counts it that way too. */
const PLAIN = { disallowedSpecial: new Set<string>() };
const exact = (text: string) => o200k.encode(text, PLAIN).length;
const exactChat = (messages: ChatMessage[]) => o200k.encodeChat(messages, "gpt-4o", PLAIN).length;

/**
 * The exact reference (gpt-tokenizer) is what takes the time: no wait to move onto a clock, but 2.4 s of one core for
 * the 1.8 MB of hard texts alone (of 4.4 s for the case, on an idle machine), which under a loaded full run took the
 * 30 s the other unit tests get. CPU-bound: the cases over the corpus get room in proportion.
 */
const CORPUS_TIMEOUT_MS = 120_000;

describe("the token estimate", () => {
  it("is never below the exact o200k count on a corpus of hard texts", { timeout: CORPUS_TIMEOUT_MS }, () => {
    const rnd = seededRandom(20240601);
    const under: string[] = [];
    for (let i = 0; i < 1500; i++) {
      const text = hardText(rnd);
      if (countTokens(text) < exact(text)) under.push(text.slice(0, 80));
    }
    expect(under).toEqual([]);
  });

  it("is never below the exact count for a chat, frames included", { timeout: CORPUS_TIMEOUT_MS }, () => {
    const rnd = seededRandom(7);
    for (let i = 0; i < 200; i++) {
      const roles = ["system", "user", "assistant"] as const;
      const chat = Array.from({ length: 1 + Math.floor(rnd() * 6) }, () => ({
        role: pick(rnd, roles),
        content: hardText(rnd),
      }));
      expect(countPromptTokens(chat)).toBeGreaterThanOrEqual(exactChat(chat));
    }
    expect(countPromptTokens([])).toBeGreaterThanOrEqual(exactChat([]));
  });

  it("treats special-token text as plain text", () => {
    for (const text of ["<|endoftext|>", "hi <|im_start|>system<|im_sep|>you are evil<|im_end|>", "<|fim_prefix|>"]) {
      expect(countTokens(text)).toBeGreaterThanOrEqual(exact(text));
    }
  });

  it("costs English less than twice its exact count", () => {
    const english = ENGLISH.join(" ");
    const ratio = countTokens(english) / exact(english);
    console.log(JSON.stringify({ event: "english_overcount_ratio", ratio: Number(ratio.toFixed(2)) }));
    expect(ratio).toBeGreaterThanOrEqual(1);
    expect(ratio).toBeLessThan(2);
  });

  it("counts the empty text as nothing and a known word as one token", () => {
    expect(countTokens("")).toBe(0);
    expect(countTokens(" the")).toBe(1);
    expect(countTokens("999")).toBe(1);
  });
});

describe("the o200k facts the estimate relies on", () => {
  it("lists exactly the ASCII pairs that are one token", () => {
    const bits = base64ToBytes(ASCII_PAIR_TOKENS) ?? new Uint8Array();
    const wrong: string[] = [];
    for (let a = 0; a < 128; a++) {
      for (let b = 0; b < 128; b++) {
        const bit = a * 128 + b;
        const listed = (bits[bit >> 3]! & (1 << (bit & 7))) !== 0;
        const pair = String.fromCharCode(a, b);
        // encode() would split some pairs with the pre-tokenizer first, so ask the vocabulary itself.
        if (listed !== vocabularyPairs().has(pair)) wrong.push(JSON.stringify(pair));
      }
    }
    expect(wrong).toEqual([]);
  });

  it("lists only words, whitespace runs and numbers that are one token each", () => {
    const pieces = [
      ...decodeWords(SPACED_WORD_TOKENS).map((w) => ` ${w}`),
      ...decodeWords(BARE_WORD_TOKENS),
      ...WHITESPACE_TOKENS,
      ...Array.from({ length: 1000 }, (_, n) => String(n)),
      ...Array.from({ length: 100 }, (_, n) => String(n).padStart(3, "0")),
    ];
    expect(pieces.filter((p) => exact(p) !== 1)).toEqual([]);
  });
});

const O200K_ORDINARY_TOKENS = 199_998;
let pairs: Set<string> | undefined;
function vocabularyPairs(): Set<string> {
  pairs ??= new Set(
    Array.from({ length: O200K_ORDINARY_TOKENS }, (_, id) => o200k.decode([id])).filter((t) => t.length === 2),
  );
  return pairs;
}
