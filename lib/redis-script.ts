/**
 * @module
 * The one way Parley runs a Lua script on Upstash Redis: `defineScript` names its keys, takes its arguments as one
 * table and reads its result through zod; `run` sends it with EVALSHA, and with EVAL only when Redis answers
 * NOSCRIPT (its cache does not survive a restart: the body is always kept). Nothing else in lib/ calls eval or
 * evalsha. Every script declares `allow-key-locking` and touches only the keys it is given, so that Upstash locks
 * those keys instead of the whole database (the local bridge enforces the rule: dev/upstash-redis/key-locking.ts).
 *
 * In the Lua, `K.<name>` is a key (a table of keys for a list) and `A.<name>` an argument: KEYS holds the keys in
 * the order they are declared (an optional one left out when not given), ARGV[1] the arguments as JSON, ARGV[2]
 * which names KEYS holds (a name, or `[name, count]` for a list). An argument is never null (cjson would hand the
 * script a truthy `cjson.null`); a JSON text a script keeps as it is travels as a string.
 */
import type { Redis } from "@upstash/redis/cloudflare";
import { bytesToHex } from "./crypto.ts";
import * as z from "./zod.ts";

/** A declared key: one, one that may be left out, or a list of any length. */
type KeyKind = "key" | "optional" | "list";
type KeyKinds = Record<string, KeyKind>;

/** The keys a script is run with, by name. */
export type ScriptKeys<S extends KeyKinds> = {
  [N in keyof S as S[N] extends "optional" ? never : N]: S[N] extends "list" ? readonly string[] : string;
} & { [N in keyof S as S[N] extends "optional" ? N : never]?: string | undefined };

/** What `run` needs of the client (the Worker's and Node's clients both have it). */
export type ScriptClient = Pick<Redis, "eval" | "evalsha">;

const PROLOGUE = `#!lua flags=allow-key-locking
local K, A = {}, cjson.decode(ARGV[1])
do
  local at = 0
  for _, entry in ipairs(cjson.decode(ARGV[2])) do
    if type(entry) == 'string' then
      at = at + 1
      K[entry] = KEYS[at]
    else
      local list = {}
      for i = 1, entry[2] do list[i] = KEYS[at + i] end
      K[entry[1]], at = list, at + entry[2]
    end
  end
end
`;

export interface ScriptDefinition<S extends KeyKinds, Args, Result> {
  keys: S;
  args: z.ZodMiniType<Args>;
  result: z.ZodMiniType<Result>;
  /** The body, after the prologue that names the keys (`K`) and decodes the arguments (`A`). */
  lua: string;
}

export class LuaScript<S extends KeyKinds, Args, Result> {
  /** The whole text Redis runs (and names by its SHA-1): the prologue, then the body. */
  readonly source: string;
  readonly keyNames: readonly (keyof S & string)[];
  readonly #definition: ScriptDefinition<S, Args, Result>;
  #sha1: Promise<string> | undefined;

  constructor(definition: ScriptDefinition<S, Args, Result>) {
    this.#definition = definition;
    this.source = PROLOGUE + definition.lua;
    this.keyNames = Object.keys(definition.keys);
  }

  /** One round trip: EVALSHA, then EVAL only if Redis does not know the script yet. */
  async run(redis: ScriptClient, keys: ScriptKeys<S>, args: Args): Promise<Result> {
    const named = keys as Record<string, string | readonly string[] | undefined>;
    const flat: string[] = [];
    const layout: (string | [string, number])[] = [];
    for (const name of this.keyNames) {
      const key = named[name];
      if (key === undefined) continue;
      if (typeof key === "string") {
        flat.push(key);
        layout.push(name);
      } else {
        flat.push(...key);
        layout.push([name, key.length]);
      }
    }
    const argv = [JSON.stringify(this.#definition.args.parse(args)), JSON.stringify(layout)];
    this.#sha1 ??= sha1Hex(this.source);
    const sha1 = await this.#sha1;
    const raw = await redis.evalsha(sha1, flat, argv).catch((err: unknown) => {
      if (!(err instanceof Error && err.message.toLowerCase().includes("noscript"))) throw err;
      return redis.eval(this.source, flat, argv);
    });
    return this.#definition.result.parse(jsonOrValue(raw));
  }
}

export function defineScript<const S extends KeyKinds, Args, Result>(
  definition: ScriptDefinition<S, Args, Result>,
): LuaScript<S, Args, Result> {
  return new LuaScript(definition);
}

/** A script's cjson result as its value (the REST client has usually parsed it already); anything else as it is. */
function jsonOrValue(raw: unknown): unknown {
  return typeof raw === "string" && /^[[{]/.test(raw) ? JSON.parse(raw) : raw;
}

async function sha1Hex(text: string): Promise<string> {
  return bytesToHex(new Uint8Array(await crypto.subtle.digest("SHA-1", new TextEncoder().encode(text))));
}

/** A script's 0/1 answer as a boolean. */
export const luaFlag = z.pipe(
  z.number(),
  z.transform((n) => n === 1),
);
