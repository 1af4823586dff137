/**
 * @module
 * Reads `.dev.vars` (creating it from `.dev.vars.example` on first run) and lets an environment variable override
 * any setting of the Worker (./worker-settings.ts: every name of its schemas) or of `.dev.vars`, so that
 * `TOOLS=… BACKFILL_MESSAGES=0 npm run dev` just works. It says which names came from the environment (never
 * their values), for the start-up table.
 */
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { PORT_SETTINGS } from "./stack-ports.ts";
import { WORKER_SETTINGS } from "./worker-settings.ts";

export function parseDotenv(text: string): Map<string, string> {
  const vars = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const eq = line.indexOf("=");
    if (eq <= 0) continue;
    let value = line.slice(eq + 1).trim();
    if (/^(["']).*\1$/.test(value)) value = value.slice(1, -1);
    vars.set(line.slice(0, eq).trim(), value);
  }
  return vars;
}

/**
 * As wrangler's `--env-file` reads it back (dotenv): in single quotes or backticks, which dotenv keeps literal,
 * unless the value holds both or a line break. A double-quoted value keeps its `\"` escapes there, so a JSON
 * setting (HTTP_TOOLS, whose descriptions hold apostrophes) written that way would no longer parse.
 */
export function formatDotenv(vars: Map<string, string>): string {
  const quoted = (v: string) =>
    /[\r\n]/.test(v)
      ? JSON.stringify(v)
      : !v.includes("'")
        ? `'${v}'`
        : !v.includes("`")
          ? `\`${v}\``
          : JSON.stringify(v);
  return `${[...vars].map(([k, v]) => `${k}=${quoted(v)}`).join("\n")}\n`;
}

export interface DevVars {
  vars: Map<string, string>;
  /** `.dev.vars` did not exist and was made from `.dev.vars.example`. */
  created: boolean;
  /** The settings the environment gave, by name, in the order of the Worker's settings. */
  fromEnvironment: string[];
}

/**
 * Returns the settings for the local Worker, whether `.dev.vars` was just created and which settings the
 * environment gave. The launcher's port settings (QSTASH_PORT, SLACK_FAKE_PORT, ...) never become Worker settings.
 */
export function loadDevVars(root: string, env: NodeJS.ProcessEnv): DevVars {
  const path = `${root}/.dev.vars`;
  const created = !existsSync(path);
  if (created) copyFileSync(`${root}/.dev.vars.example`, path);
  const vars = parseDotenv(readFileSync(path, "utf8"));
  const fromEnvironment: string[] = [];
  for (const key of [...WORKER_SETTINGS, ...vars.keys()]) {
    const value = env[key];
    if (value === undefined || PORT_SETTINGS.has(key) || fromEnvironment.includes(key)) continue;
    vars.set(key, value);
    fromEnvironment.push(key);
  }
  for (const key of PORT_SETTINGS) vars.delete(key);
  return { vars, created, fromEnvironment };
}
