/**
 * @module
 * Upstash's `allow-key-locking` script flag, enforced locally. On Upstash a script that declares
 * `#!lua flags=allow-key-locking` locks only the keys passed in KEYS, and so may touch no other key and run no
 * database-wide command. redis-server 7.0 refuses the flag itself, so the bridge replaces the shebang line with a
 * one-line Lua prologue that wraps redis.call/pcall with those checks (driven by Redis's own key specs, see
 * key-specs.ts) and keeps every other line where it was. The client computed its EVALSHA digest over the original
 * text; the bridge maps it to the digest of what Redis cached, so EVALSHA → NOSCRIPT → EVAL works unchanged.
 *
 * With `required`, a script without the flag is refused: Parley's own rule, so that no script of the project takes
 * Upstash's database-wide lock (the tests and the benches run the bridge that way).
 */
import { createHash } from "node:crypto";
import type { RestCommand } from "./commands.ts";
import { type KeySpec, keySpecsLua } from "./key-specs.ts";

const FLAG = "allow-key-locking";
const SHEBANG = /^#!lua(?:[ \t]+flags=([^\n]*))?\n/;
/** Upstash's text for a key not given in KEYS. */
export const DYNAMIC_KEY_ERROR =
  "ERR Dynamic keys are not allowed in Lua scripts when 'allow-key-locking' flag is set. Key was: ";

/** Lua on one line (no `--` comments: they would swallow the rest of it); SPECS is replaced by the key specs. */
const PROLOGUE = `
local redis = (function(r, declared, specs)
  local allowed = {}
  for _, key in ipairs(declared) do allowed[key] = true end
  local function keysOf(args)
    local name = string.lower(tostring(args[1]))
    local list = (args[2] ~= nil and specs[name .. '|' .. string.lower(tostring(args[2]))]) or specs[name]
    local keys, argc = {}, #args
    for _, s in ipairs(list or {}) do
      if s.u then return nil end
      local first
      if s.i then first = s.i else
        local i, stop, dir = s.s, argc - 1, 1
        if s.s <= 0 then i, stop, dir = argc + s.s, 0, -1 end
        while i ~= stop and i < argc and i >= 1 do
          if string.upper(tostring(args[i + 1])) == s.k then first = i + 1 break end
          i = i + dir
        end
      end
      if first then
        local last
        if s.n then
          local count = tonumber(args[first + s.n + 1]) or 0
          first = first + s.fk
          last = first + count - 1
        elseif s.l >= 0 then last = first + s.l
        elseif s.li == 0 then last = argc + s.l
        else last = first + math.floor((argc - first) / s.li) + s.l end
        local i = first
        while i <= last and i < argc do
          keys[#keys + 1] = tostring(args[i + 1])
          i = i + math.max(1, s.st)
        end
      end
    end
    return keys
  end
  local function refusal(args)
    local name = string.upper(tostring(args[1]))
    if name == 'FLUSHDB' or name == 'FLUSHALL' then
      return 'ERR ' .. name .. ' is not allowed in Lua scripts when \\'allow-key-locking\\' flag is set'
    end
    local keys = keysOf(args)
    if not keys then
      return 'ERR the local Upstash bridge cannot tell which keys ' .. name .. ' touches here, so it cannot check them against KEYS'
    end
    for _, key in ipairs(keys) do
      if not allowed[key] then return '${DYNAMIC_KEY_ERROR.replace(/'/g, "\\'")}' .. key end
    end
  end
  local checked = setmetatable({}, {__index = r})
  checked.call = function(...) local e = refusal({...}) if e then error({err = e}) end return r.call(...) end
  checked.pcall = function(...) local e = refusal({...}) if e then return r.error_reply(e) end return r.pcall(...) end
  return checked
end)(redis, KEYS, SPECS)`
  .trim()
  .split("\n")
  .map((line) => line.trim())
  .join(" ");

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");
const SCRIPT_COMMANDS: ReadonlySet<string> = new Set(["eval", "eval_ro"]);
const DIGEST_COMMANDS: ReadonlySet<string> = new Set(["evalsha", "evalsha_ro"]);

export class KeyLockingScripts {
  readonly #prologue: string;
  readonly #required: boolean;
  /** Digest of the client's text → digest of what Redis got. */
  readonly #shas = new Map<string, string>();
  /** Digests of the texts that carry the checks. */
  readonly #checked = new Set<string>();

  constructor(specs: ReadonlyMap<string, KeySpec[]>, opts: { required?: boolean } = {}) {
    this.#prologue = PROLOGUE.replace("SPECS", () => keySpecsLua(specs));
    this.#required = opts.required ?? false;
  }

  /** Rewrites one command or a list of commands (pipeline, transaction); anything else passes through. */
  translate(body: unknown): unknown {
    if (!Array.isArray(body)) return body;
    return Array.isArray(body[0]) ? body.map((command) => this.#command(command)) : this.#command(body);
  }

  /** Why a translated command must not run: with `required`, a script that does not declare the flag. */
  refusal(command: RestCommand): string | undefined {
    const name = String(command[0]).toLowerCase();
    const isScript = SCRIPT_COMMANDS.has(name) || (name === "script" && String(command[1]).toLowerCase() === "load");
    const script = String(command[name === "script" ? 2 : 1] ?? "");
    if (!this.#required || !isScript || this.#checked.has(sha1(script))) return undefined;
    return `ERR this script does not declare '#!lua flags=${FLAG}': every script must, so that none takes Upstash's database-wide lock (see dev/upstash-redis/key-locking.ts)`;
  }

  #command(command: unknown): unknown {
    if (!Array.isArray(command) || typeof command[0] !== "string") return command;
    const name = command[0].toLowerCase();
    if (SCRIPT_COMMANDS.has(name) && typeof command[1] === "string")
      return [command[0], this.#script(command[1]), ...command.slice(2)];
    if (DIGEST_COMMANDS.has(name) && typeof command[1] === "string")
      return [command[0], this.#digest(command[1]), ...command.slice(2)];
    if (name === "script" && String(command[1]).toLowerCase() === "exists") {
      return [
        ...command.slice(0, 2),
        ...command.slice(2).map((sha) => (typeof sha === "string" ? this.#digest(sha) : sha)),
      ];
    }
    return command;
  }

  #digest(sha: string): string {
    return this.#shas.get(sha.toLowerCase()) ?? sha;
  }

  #script(script: string): string {
    const shebang = SHEBANG.exec(script);
    const flags = (shebang?.[1] ?? "")
      .split(",")
      .map((f) => f.trim())
      .filter(Boolean);
    if (!shebang || !flags.includes(FLAG)) return script;
    const kept = flags.filter((f) => f !== FLAG);
    // The prologue takes the shebang's line, so Redis's line numbers in errors still match the source.
    const flagsLine = kept.length ? `#!lua flags=${kept.join(",")}\n` : "";
    const translated = `${flagsLine}${this.#prologue}\n${script.slice(shebang[0].length)}`;
    const digest = sha1(translated);
    this.#shas.set(sha1(script), digest);
    this.#checked.add(digest);
    return translated;
  }
}
