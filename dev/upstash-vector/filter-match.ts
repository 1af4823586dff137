/**
 * @module
 * Whether a vector's metadata satisfies a parsed filter. A condition on a field the metadata lacks is false
 * (including != and the NOT forms), except HAS NOT FIELD; a boolean field equals true/false and also 1/0, the
 * boolean literals of Upstash's filter page.
 */
import type { Comparison, FilterNode, Literal, PathStep } from "./filter-parse.ts";

export type Metadata = Record<string, unknown>;

export function matchesFilter(node: FilterNode, metadata: Metadata | undefined): boolean {
  switch (node.kind) {
    case "all":
      return true;
    case "and":
      return node.parts.every((part) => matchesFilter(part, metadata));
    case "or":
      return node.parts.some((part) => matchesFilter(part, metadata));
    case "has":
      return (resolve(metadata, node.path) !== undefined) !== node.negated;
  }
  const value = resolve(metadata, node.path);
  if (value === undefined || value === null) return false;
  switch (node.kind) {
    case "compare":
      return compare(value, node.op, node.value);
    case "in":
      return node.values.some((literal) => equals(value, literal)) !== node.negated;
    case "contains":
      return Array.isArray(value) && value.some((item) => equals(item, node.value)) !== node.negated;
    case "glob":
      return typeof value === "string" && globMatches(node.pattern, value) !== node.negated;
  }
}

function resolve(metadata: Metadata | undefined, path: PathStep[]): unknown {
  let current: unknown = metadata;
  for (const step of path) {
    if (typeof step === "string") {
      if (typeof current !== "object" || current === null || Array.isArray(current)) return undefined;
      current = (current as Metadata)[step];
    } else {
      if (!Array.isArray(current)) return undefined;
      current = current[step.fromEnd ? current.length - step.index : step.index];
    }
  }
  return current;
}

function equals(value: unknown, literal: Literal): boolean {
  if (typeof value === "boolean" && typeof literal === "number")
    return (literal === 1 || literal === 0) && value === (literal === 1);
  return value === literal;
}

function compare(value: unknown, op: Comparison, literal: Literal): boolean {
  if (op === "=") return equals(value, literal);
  if (op === "!=") return !equals(value, literal);
  if (typeof value !== "number" || typeof literal !== "number") return false;
  if (op === "<") return value < literal;
  if (op === "<=") return value <= literal;
  if (op === ">") return value > literal;
  return value >= literal;
}

const globCache = new Map<string, RegExp>();
const GLOB_CACHE_SIZE = 1_000;

/** Case-sensitive glob: `*` any run, `?` one character, `[abc]`, `[a-z]`, `[^abc]` (`[!abc]` too) a class. */
function globMatches(pattern: string, text: string): boolean {
  let regex = globCache.get(pattern);
  if (!regex) {
    regex = new RegExp(`^${globToRegex(pattern)}$`, "su");
    if (globCache.size >= GLOB_CACHE_SIZE) globCache.clear();
    globCache.set(pattern, regex);
  }
  return regex.test(text);
}

function globToRegex(pattern: string): string {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === "*") out += ".*";
    else if (char === "?") out += ".";
    else if (char === "[" && pattern.indexOf("]", i + 2) > i) {
      const end = pattern.indexOf("]", i + 2);
      let body = pattern.slice(i + 1, end);
      const negated = body.startsWith("^") || body.startsWith("!");
      if (negated) body = body.slice(1);
      out += `[${negated ? "^" : ""}${body.replace(/[\\\]]/g, "\\$&")}]`;
      i = end;
    } else out += char.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  return out;
}
