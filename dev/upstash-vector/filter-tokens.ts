/**
 * @module
 * Splits an Upstash metadata filter into tokens: identifiers (with dots and [n] / [#-n] array steps), quoted
 * strings, numbers, comparison signs, parentheses and commas. Keywords are identifiers the parser recognises
 * case-insensitively, so a field may still be called `in` or `and` when quoted by position.
 */
import { VectorError } from "./errors.ts";

export type FilterToken =
  | { kind: "word"; text: string; at: number }
  | { kind: "string"; value: string; at: number }
  | { kind: "number"; value: number; at: number }
  | { kind: "sign"; text: "=" | "!=" | "<" | "<=" | ">" | ">=" | "(" | ")" | ","; at: number };

/** Upstash's identifier pattern. */
const IDENTIFIER = /[a-zA-Z_][a-zA-Z_0-9.[\]#-]*/y;
const NUMBER = /-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;
const SIGNS = ["!=", "<=", ">=", "=", "<", ">", "(", ")", ","] as const;

export function filterError(filter: string, at: number, problem: string): VectorError {
  return new VectorError(400, `Invalid filter "${filter}": ${problem} at position ${at + 1}`);
}

export function tokenizeFilter(filter: string): FilterToken[] {
  const tokens: FilterToken[] = [];
  let at = 0;
  while (at < filter.length) {
    const char = filter[at]!;
    if (/\s/.test(char)) {
      at++;
      continue;
    }
    if (char === "'" || char === '"') {
      const { value, end } = readString(filter, at);
      tokens.push({ kind: "string", value, at });
      at = end;
      continue;
    }
    const sign = SIGNS.find((s) => filter.startsWith(s, at));
    if (sign) {
      tokens.push({ kind: "sign", text: sign, at });
      at += sign.length;
      continue;
    }
    const number = matchAt(NUMBER, filter, at);
    if (number) {
      tokens.push({ kind: "number", value: Number(number), at });
      at += number.length;
      continue;
    }
    const word = matchAt(IDENTIFIER, filter, at);
    if (!word) throw filterError(filter, at, `unexpected character ${JSON.stringify(char)}`);
    tokens.push({ kind: "word", text: word, at });
    at += word.length;
  }
  return tokens;
}

function matchAt(pattern: RegExp, text: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0];
}

/** A quoted string; a backslash escapes the next character (so a quote can appear inside). */
function readString(filter: string, start: number): { value: string; end: number } {
  const quote = filter[start]!;
  let value = "";
  for (let i = start + 1; i < filter.length; i++) {
    const char = filter[i]!;
    if (char === quote) return { value, end: i + 1 };
    if (char === "\\" && i + 1 < filter.length) {
      value += filter[++i];
      continue;
    }
    value += char;
  }
  throw filterError(filter, start, "unterminated string");
}
