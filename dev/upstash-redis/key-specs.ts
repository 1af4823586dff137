/**
 * @module
 * Where each Redis command takes its keys, read once from redis-server itself (`COMMAND`, the key specs of Redis 7),
 * and written as a Lua table, so the bridge's key-locking prologue (key-locking.ts) can find the keys of any
 * command a script calls the way Redis does: from a fixed index or after a keyword, then a range or a counted list.
 */
import { isErrorReply, type RedisLink, type RedisReply } from "./redis-link.ts";

/** One key spec. `begin`/`find` are null when Redis finds those keys with code of its own (e.g. SORT … STORE). */
export interface KeySpec {
  begin: { index: number } | { keyword: string; startFrom: number } | null;
  find:
    | { lastKey: number; step: number; limit: number }
    | { keyNumIndex: number; firstKey: number; step: number }
    | null;
}

type Fields = Map<string, RedisReply>;

function text(reply: RedisReply | undefined): string {
  if (reply === undefined || reply === null || typeof reply === "number" || isErrorReply(reply) || Array.isArray(reply))
    return String(reply ?? "");
  return reply.toString("utf8");
}

/** A flat RESP2 map (`["type", "index", "spec", [...]]`) as a Map. */
function fields(reply: RedisReply | undefined): Fields {
  const map: Fields = new Map();
  if (!Array.isArray(reply)) return map;
  for (let i = 0; i + 1 < reply.length; i += 2) map.set(text(reply[i]), reply[i + 1]!);
  return map;
}

const num = (f: Fields, name: string) => Number(f.get(name) ?? 0);

function keySpec(raw: RedisReply): KeySpec {
  const spec = fields(raw);
  const begin = fields(spec.get("begin_search"));
  const beginSpec = fields(begin.get("spec"));
  const find = fields(spec.get("find_keys"));
  const findSpec = fields(find.get("spec"));
  const beginType = text(begin.get("type"));
  const findType = text(find.get("type"));
  return {
    begin:
      beginType === "index"
        ? { index: num(beginSpec, "index") }
        : beginType === "keyword"
          ? { keyword: text(beginSpec.get("keyword")).toUpperCase(), startFrom: num(beginSpec, "startfrom") }
          : null,
    find:
      findType === "range"
        ? { lastKey: num(findSpec, "lastkey"), step: num(findSpec, "keystep"), limit: num(findSpec, "limit") }
        : findType === "keynum"
          ? {
              keyNumIndex: num(findSpec, "keynumidx"),
              firstKey: num(findSpec, "firstkey"),
              step: num(findSpec, "keystep"),
            }
          : null,
  };
}

/** `[name, arity, flags, first, last, step, acl, tips, key specs, subcommands]`, subcommands named `parent|sub`. */
function collect(entry: RedisReply, into: Map<string, KeySpec[]>): void {
  if (!Array.isArray(entry)) return;
  const specs = entry[8];
  if (Array.isArray(specs) && specs.length > 0) into.set(text(entry[0]).toLowerCase(), specs.map(keySpec));
  const subcommands = entry[9];
  if (Array.isArray(subcommands)) for (const sub of subcommands) collect(sub, into);
}

/** The key specs of every command the server knows; commands without keys are absent. */
export async function loadKeySpecs(redis: RedisLink): Promise<Map<string, KeySpec[]>> {
  const [reply] = await redis.send([[Buffer.from("COMMAND")]]);
  if (!Array.isArray(reply)) {
    throw new Error(
      `redis-server answered COMMAND with ${isErrorReply(reply) ? reply.message : "no command table"}: the bridge needs Redis 7`,
    );
  }
  const specs = new Map<string, KeySpec[]>();
  for (const entry of reply) collect(entry, specs);
  return specs;
}

/**
 * The specs as one line of Lua: `{["set"]={{i=1,l=0,st=1,li=0}}, …}`. Fields: i (begin at index) or k/s (begin after
 * keyword k, searching from s), then l/st/li (range: last key, step, limit) or n/fk/st (count at n, first key, step);
 * u marks a spec the bridge cannot follow.
 */
export function keySpecsLua(specs: ReadonlyMap<string, KeySpec[]>): string {
  const lua = (spec: KeySpec): string => {
    if (!spec.begin || !spec.find) return "{u=true}";
    const begin =
      "index" in spec.begin
        ? `i=${spec.begin.index}`
        : `k=${JSON.stringify(spec.begin.keyword)},s=${spec.begin.startFrom}`;
    const find =
      "lastKey" in spec.find
        ? `l=${spec.find.lastKey},st=${spec.find.step},li=${spec.find.limit}`
        : `n=${spec.find.keyNumIndex},fk=${spec.find.firstKey},st=${spec.find.step}`;
    return `{${begin},${find}}`;
  };
  return `{${[...specs].map(([name, list]) => `[${JSON.stringify(name)}]={${list.map(lua).join(",")}}`).join(",")}}`;
}
