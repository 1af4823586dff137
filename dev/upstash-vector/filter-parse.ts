/**
 * @module
 * Parses Upstash's metadata filter language into a tree (never eval): comparisons (= != < <= > >=), [NOT] IN (...),
 * [NOT] GLOB '...', [NOT] CONTAINS value, HAS [NOT] FIELD path, joined by AND and OR (AND binds tighter) with
 * parentheses. Operators, AND/OR and true/false are case-insensitive; an empty filter matches everything.
 */
import { filterError, tokenizeFilter, type FilterToken } from "./filter-tokens.ts";

export type Literal = string | number | boolean;
/** A field name, an array position, or a position counted from the end (`[#-1]` is the last element). */
export type PathStep = string | { index: number; fromEnd: boolean };
export type Comparison = "=" | "!=" | "<" | "<=" | ">" | ">=";

export type FilterNode =
  | { kind: "all" }
  | { kind: "and" | "or"; parts: FilterNode[] }
  | { kind: "compare"; path: PathStep[]; op: Comparison; value: Literal }
  | { kind: "in"; path: PathStep[]; negated: boolean; values: Literal[] }
  | { kind: "glob"; path: PathStep[]; negated: boolean; pattern: string }
  | { kind: "contains"; path: PathStep[]; negated: boolean; value: Literal }
  | { kind: "has"; path: PathStep[]; negated: boolean };

const COMPARISONS: ReadonlySet<string> = new Set(["=", "!=", "<", "<=", ">", ">="]);
/** `name` first, then `.name`, `[2]` or `[#-1]` steps. */
const PATH_STEP = /(?:^|\.)([^.[\]]+)|\[(#-)?(\d+)\]/y;

export function parseFilter(filter: string): FilterNode {
  if (filter.trim() === "") return { kind: "all" };
  const parser = new Parser(filter, tokenizeFilter(filter));
  const tree = parser.orExpression();
  parser.expectEnd();
  return tree;
}

function pathSteps(text: string): PathStep[] | undefined {
  const steps: PathStep[] = [];
  PATH_STEP.lastIndex = 0;
  while (PATH_STEP.lastIndex < text.length) {
    const m = PATH_STEP.exec(text);
    if (!m) return undefined;
    steps.push(m[1] ?? { index: Number(m[3]), fromEnd: m[2] !== undefined });
  }
  return steps;
}

class Parser {
  readonly #filter: string;
  readonly #tokens: FilterToken[];
  #next = 0;

  constructor(filter: string, tokens: FilterToken[]) {
    this.#filter = filter;
    this.#tokens = tokens;
  }

  orExpression(): FilterNode {
    const parts = [this.#andExpression()];
    while (this.#takeKeyword("OR")) parts.push(this.#andExpression());
    return parts.length === 1 ? parts[0]! : { kind: "or", parts };
  }

  expectEnd(): void {
    const token = this.#tokens[this.#next];
    if (token) throw this.#error(token, "expected AND, OR or the end of the filter");
  }

  #andExpression(): FilterNode {
    const parts = [this.#condition()];
    while (this.#takeKeyword("AND")) parts.push(this.#condition());
    return parts.length === 1 ? parts[0]! : { kind: "and", parts };
  }

  #condition(): FilterNode {
    if (this.#takeSign("(")) {
      const inner = this.orExpression();
      this.#expectSign(")");
      return inner;
    }
    if (this.#takeKeyword("HAS")) {
      const negated = this.#takeKeyword("NOT");
      if (!this.#takeKeyword("FIELD")) throw this.#error(this.#peek(), "expected FIELD after HAS");
      return { kind: "has", path: this.#path(), negated };
    }
    const path = this.#path();
    const token = this.#peek();
    if (token?.kind === "sign" && COMPARISONS.has(token.text)) {
      this.#next++;
      return { kind: "compare", path, op: token.text as Comparison, value: this.#literal() };
    }
    const negated = this.#takeKeyword("NOT");
    if (this.#takeKeyword("IN")) return { kind: "in", path, negated, values: this.#literalList() };
    if (this.#takeKeyword("CONTAINS")) return { kind: "contains", path, negated, value: this.#literal() };
    if (this.#takeKeyword("GLOB")) {
      const pattern = this.#literal();
      if (typeof pattern !== "string") throw this.#error(this.#tokens[this.#next - 1], "GLOB needs a quoted pattern");
      return { kind: "glob", path, negated, pattern };
    }
    throw this.#error(
      token,
      "expected an operator (=, !=, <, <=, >, >=, IN, NOT IN, GLOB, NOT GLOB, CONTAINS, NOT CONTAINS)",
    );
  }

  #path(): PathStep[] {
    const token = this.#peek();
    if (token?.kind !== "word") throw this.#error(token, "expected a field name");
    this.#next++;
    const steps = pathSteps(token.text);
    if (!steps) throw this.#error(token, `malformed field name ${token.text}`);
    return steps;
  }

  #literal(): Literal {
    const token = this.#peek();
    this.#next++;
    if (token?.kind === "string" || token?.kind === "number") return token.value;
    if (token?.kind === "word" && /^(true|false)$/i.test(token.text)) return token.text.toLowerCase() === "true";
    throw this.#error(token, "expected a value (a quoted string, a number, true or false)");
  }

  #literalList(): Literal[] {
    this.#expectSign("(");
    const values = [this.#literal()];
    while (this.#takeSign(",")) values.push(this.#literal());
    this.#expectSign(")");
    return values;
  }

  #peek(): FilterToken | undefined {
    return this.#tokens[this.#next];
  }

  #takeKeyword(keyword: string): boolean {
    const token = this.#peek();
    if (token?.kind !== "word" || token.text.toUpperCase() !== keyword) return false;
    this.#next++;
    return true;
  }

  #takeSign(sign: string): boolean {
    const token = this.#peek();
    if (token?.kind !== "sign" || token.text !== sign) return false;
    this.#next++;
    return true;
  }

  #expectSign(sign: string): void {
    if (!this.#takeSign(sign)) throw this.#error(this.#peek(), `expected "${sign}"`);
  }

  #error(token: FilterToken | undefined, problem: string) {
    return filterError(this.#filter, token?.at ?? this.#filter.length, token ? problem : `${problem}, found the end`);
  }
}
