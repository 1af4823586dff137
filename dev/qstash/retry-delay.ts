/**
 * @module
 * The `Upstash-Retry-Delay` expression language: arithmetic in milliseconds over the variable `retried`
 * (0 before the first retry), with the functions QStash documents. Parsed once at publish time (a bad
 * expression is a 400 there) and evaluated by a small tree walker: never `eval`.
 */

export type RetryDelayExpression = (retried: number) => number;

const FUNCTIONS: Record<string, { arity: number | "many"; apply: (args: number[]) => number }> = {
  pow: { arity: 2, apply: ([a = 0, b = 0]) => a ** b },
  sqrt: { arity: 1, apply: ([a = 0]) => Math.sqrt(a) },
  abs: { arity: 1, apply: ([a = 0]) => Math.abs(a) },
  exp: { arity: 1, apply: ([a = 0]) => Math.exp(a) },
  floor: { arity: 1, apply: ([a = 0]) => Math.floor(a) },
  ceil: { arity: 1, apply: ([a = 0]) => Math.ceil(a) },
  round: { arity: 1, apply: ([a = 0]) => Math.round(a) },
  min: { arity: "many", apply: (args) => Math.min(...args) },
  max: { arity: "many", apply: (args) => Math.max(...args) },
};

const VARIABLE = "retried";
const MAX_EXPRESSION_LENGTH = 512;
const TOKEN = /\s*(?:(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|([A-Za-z_]\w*)|([-+*/(),]))/y;

type Token = { kind: "number"; value: number } | { kind: "name"; value: string } | { kind: "punct"; value: string };
type Node = (retried: number) => number;

export class RetryDelaySyntaxError extends Error {
  override name = "RetryDelaySyntaxError";
}

/** Parses `source` into an evaluator; throws RetryDelaySyntaxError with the reason when it is not valid. */
export function parseRetryDelay(source: string): RetryDelayExpression {
  if (source.length > MAX_EXPRESSION_LENGTH) throw new RetryDelaySyntaxError("retry delay expression is too long");
  const tokens = tokenize(source);
  let position = 0;
  const peek = (): Token | undefined => tokens[position];
  const isPunct = (value: string): boolean => {
    const token = peek();
    return token?.kind === "punct" && token.value === value;
  };
  const expect = (value: string): void => {
    if (!isPunct(value)) throw new RetryDelaySyntaxError(`expected "${value}" in retry delay "${source}"`);
    position++;
  };

  const expression = (): Node => {
    let left = term();
    while (isPunct("+") || isPunct("-")) {
      const op = (tokens[position++] as Token).value;
      const [l, r] = [left, term()];
      left = op === "+" ? (n) => l(n) + r(n) : (n) => l(n) - r(n);
    }
    return left;
  };
  const term = (): Node => {
    let left = unary();
    while (isPunct("*") || isPunct("/")) {
      const op = (tokens[position++] as Token).value;
      const [l, r] = [left, unary()];
      left = op === "*" ? (n) => l(n) * r(n) : (n) => l(n) / r(n);
    }
    return left;
  };
  const unary = (): Node => {
    if (isPunct("-")) {
      position++;
      const inner = unary();
      return (n) => -inner(n);
    }
    return primary();
  };
  const primary = (): Node => {
    const token = tokens[position++];
    if (!token) throw new RetryDelaySyntaxError(`unexpected end of retry delay "${source}"`);
    if (token.kind === "number") return () => token.value;
    if (token.kind === "punct" && token.value === "(") {
      const inner = expression();
      expect(")");
      return inner;
    }
    if (token.kind === "name" && token.value === VARIABLE) return (n) => n;
    if (token.kind === "name" && Object.hasOwn(FUNCTIONS, token.value)) return call(token.value);
    throw new RetryDelaySyntaxError(`unexpected "${token.value}" in retry delay "${source}"`);
  };
  const call = (name: string): Node => {
    const fn = FUNCTIONS[name] as (typeof FUNCTIONS)[string];
    expect("(");
    const args: Node[] = [expression()];
    while (isPunct(",")) {
      position++;
      args.push(expression());
    }
    expect(")");
    if (fn.arity === "many" ? args.length < 1 : args.length !== fn.arity) {
      throw new RetryDelaySyntaxError(`${name}() takes ${fn.arity === "many" ? "at least one" : fn.arity} argument(s)`);
    }
    return (n) => fn.apply(args.map((arg) => arg(n)));
  };

  const root = expression();
  if (position !== tokens.length)
    throw new RetryDelaySyntaxError(`unexpected trailing input in retry delay "${source}"`);
  return root;
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    if (/^\s*$/.test(source.slice(TOKEN.lastIndex))) break;
    const start = TOKEN.lastIndex;
    const match = TOKEN.exec(source);
    if (!match) throw new RetryDelaySyntaxError(`invalid character at ${start} in retry delay "${source}"`);
    if (match[1] !== undefined) tokens.push({ kind: "number", value: Number(match[1]) });
    else if (match[2] !== undefined) tokens.push({ kind: "name", value: match[2] });
    else tokens.push({ kind: "punct", value: match[3] as string });
  }
  return tokens;
}
