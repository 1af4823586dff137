/**
 * @module
 * Reads `.dev.vars` (creating it from `.dev.vars.example` on first run) and lets environment variables of the same
 * name override any setting, so `SLACK_API_BASE_URL=http://127.0.0.1:9000 npm run dev` just works.
 */
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { PORT_SETTINGS } from "./stack-ports.ts";

/** The environment variables that reach the Worker even when `.dev.vars` does not name them. */
const WORKER_SETTING = /^(DISCORD|SLACK|TWILIO|OPENAI|BOT|QSTASH|UPSTASH|RECALL)_/;

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
  return [...vars].map(([k, v]) => `${k}=${quoted(v)}`).join("\n") + "\n";
}

/**
 * Returns the settings for the local Worker and whether `.dev.vars` was just created. The launcher's port settings
 * (QSTASH_PORT, SLACK_FAKE_PORT, ...) never become Worker settings, whatever their prefix.
 */
export function loadDevVars(root: string, env: NodeJS.ProcessEnv): { vars: Map<string, string>; created: boolean } {
  const path = `${root}/.dev.vars`;
  const created = !existsSync(path);
  if (created) copyFileSync(`${root}/.dev.vars.example`, path);
  const vars = parseDotenv(readFileSync(path, "utf8"));
  for (const key of Object.keys(env)) {
    const value = env[key];
    if (value === undefined || PORT_SETTINGS.has(key)) continue;
    if (vars.has(key) || WORKER_SETTING.test(key)) vars.set(key, value);
  }
  for (const key of PORT_SETTINGS) vars.delete(key);
  return { vars, created };
}
