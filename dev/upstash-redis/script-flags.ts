/**
 * @module
 * Upstash accepts script shebang flags that redis-server 7.0 refuses (`#!lua flags=allow-key-locking`, declared by
 * every @upstash/ratelimit script). The bridge drops those flags before Redis sees the script, and maps the SHA the
 * client computed over the original text to the SHA of what Redis cached, so EVALSHA keeps working.
 */
import { createHash } from "node:crypto";

const UPSTASH_ONLY_FLAGS: ReadonlySet<string> = new Set(["allow-key-locking"]);
const SHEBANG = /^#!lua(?:[ \t]+flags=([^\n]*))?\n/;

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

export class ScriptFlagTranslator {
  readonly #shas = new Map<string, string>();

  /** Rewrites one command or a list of commands (pipeline, transaction); anything else passes through. */
  translate(body: unknown): unknown {
    if (!Array.isArray(body)) return body;
    return Array.isArray(body[0]) ? body.map((command) => this.#command(command)) : this.#command(body);
  }

  #command(command: unknown): unknown {
    if (!Array.isArray(command) || typeof command[0] !== "string" || typeof command[1] !== "string") return command;
    const name = command[0].toLowerCase();
    if (name === "eval" || name === "eval_ro") return [command[0], this.#script(command[1]), ...command.slice(2)];
    if (name === "evalsha" || name === "evalsha_ro") return [command[0], this.#shas.get(command[1].toLowerCase()) ?? command[1], ...command.slice(2)];
    return command;
  }

  #script(script: string): string {
    const shebang = SHEBANG.exec(script);
    if (!shebang?.[1]) return script;
    const flags = shebang[1].split(",").map((f) => f.trim()).filter(Boolean);
    const kept = flags.filter((f) => !UPSTASH_ONLY_FLAGS.has(f));
    if (kept.length === flags.length) return script;
    // With no flags left the script runs without a shebang, as Redis ran scripts before 7.0.
    const translated = (kept.length ? `#!lua flags=${kept.join(",")}\n` : "") + script.slice(shebang[0].length);
    this.#shas.set(sha1(script), sha1(translated));
    return translated;
  }
}
