/**
 * @module
 * Starts Workers for bench/load in workerd through wrangler's `unstable_startWorker`: the real Worker from
 * wrangler.toml with the bench's settings as bindings, and the do-nothing Worker, the same way, on loopback.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unstable_startWorker } from "wrangler";
import { devToolSettings } from "../../dev/tools/settings.ts";
import { REPO_ROOT } from "../bundle/build.ts";
import { REDIS_REST_TOKEN, TOKEN_ENCRYPTION_KEY, type Stack } from "./stack.ts";
import { googleChatVars } from "./google-chat-traffic.ts";
import { teamsVars } from "./teams-traffic.ts";
import { telegramVars } from "./telegram-traffic.ts";
import * as traffic from "./traffic.ts";

export interface RunningWorker {
  url: string;
  stop(): Promise<void>;
}

/**
 * wrangler.toml as it is (minify and all), in a folder of its own per Worker: wrangler reads `.dev.vars` from beside
 * its config, and a developer's local settings (`npm run dev` writes them: the Vector stand-in's address, a model
 * key) must not reach the bench's Worker; and workerd keeps its local storage there, so two Workers of one bench
 * (bench/latency) are two deployments, each with its own Durable Objects (its own Discord Gateway session).
 */
function benchConfig(): string {
  const text = readFileSync(join(REPO_ROOT, "wrangler.toml"), "utf8");
  const main = /^main = "(.+)"$/m.exec(text)?.[1];
  if (!main) throw new Error("wrangler.toml names no main module");
  const config = join(mkdtempSync(join(tmpdir(), "parley-bench-")), "wrangler.toml");
  writeFileSync(config, text.replace(/^main = ".+"$/m, `main = ${JSON.stringify(join(REPO_ROOT, main))}`));
  return config;
}

/** A config of its own: without one, wrangler would read the repository's wrangler.toml and its bindings. */
const NOOP_CONFIG = join(import.meta.dirname, "noop.wrangler.toml");

// Offline like `npm run dev`: without this, miniflare fetches Request.cf and prints a stack trace when it cannot.
process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";

/** `log` lets the Worker's own log lines through to this process's console (bench/chaos reads them). */
type LogLevel = "none" | "log";

async function start(
  input: Parameters<typeof unstable_startWorker>[0],
  port: number,
  logLevel: LogLevel = "none",
): Promise<RunningWorker> {
  const worker = await unstable_startWorker({
    ...input,
    dev: { server: { hostname: "127.0.0.1", port }, inspector: false, watch: false, logLevel },
  });
  await worker.ready;
  return { url: `http://127.0.0.1:${port}`, stop: () => worker.dispose() };
}

/** The official QStash dev credentials: the stand-in signs with them, the Worker verifies with them. */
export const QSTASH_DEV = {
  QSTASH_TOKEN: "eyJVc2VySUQiOiJkZWZhdWx0VXNlciIsIlBhc3N3b3JkIjoiZGVmYXVsdFBhc3N3b3JkIn0=",
  QSTASH_CURRENT_SIGNING_KEY: "sig_7kYjw48mhY7kAjqNGcy6cr29RJ6r",
  QSTASH_NEXT_SIGNING_KEY: "sig_5ZB6DVzB1wjE8S6rZ7eenA8Pdnhs",
};

/** Parley on the bench's stack, every platform on, with the default settings otherwise (memory and summary on). */
export function startParley(
  stack: Stack,
  discord: traffic.DiscordSigner,
  keyPrefix: string,
  logLevel?: LogLevel,
): Promise<RunningWorker> {
  // With the stack's tool server, every tenant may look a ticket up, in one round at most.
  const tools = stack.toolServerUrl
    ? { ...devToolSettings(stack.toolServerUrl), TOOLS: "lookup_ticket", MAX_TOOL_ROUNDS: "1" }
    : {};
  return startParleyOn(
    { ...stack, publicBaseUrl: stack.gate.url, port: stack.workerPort },
    discord,
    keyPrefix,
    tools,
    logLevel,
  );
}

/** Where a Parley Worker runs and what it talks to. */
export type ParleyStack = Pick<Stack, "redisRestUrl" | "qstashUrl" | "modelUrl" | "fakes"> & {
  publicBaseUrl: string;
  port: number;
};

/** Parley on `stack`, with `overrides` over its settings (bench/latency: STREAMING on and off). */
export function startParleyOn(
  stack: ParleyStack,
  discord: traffic.DiscordSigner,
  keyPrefix: string,
  overrides: Record<string, string> = {},
  logLevel?: LogLevel,
): Promise<RunningWorker> {
  const vars: Record<string, string> = {
    ...QSTASH_DEV,
    UPSTASH_REDIS_REST_URL: stack.redisRestUrl,
    UPSTASH_REDIS_REST_TOKEN: REDIS_REST_TOKEN,
    QSTASH_URL: stack.qstashUrl,
    PUBLIC_BASE_URL: stack.publicBaseUrl,
    OPENAI_API_KEY: "bench-key",
    OPENAI_BASE_URL: stack.modelUrl,
    TOKEN_ENCRYPTION_KEY,
    SLACK_SIGNING_SECRET: traffic.SLACK_SIGNING_SECRET,
    SLACK_BOT_TOKEN: "xoxb-bench",
    SLACK_API_BASE_URL: stack.fakes.slack,
    DISCORD_APPLICATION_ID: traffic.DISCORD_APPLICATION_ID,
    DISCORD_PUBLIC_KEY: discord.publicKeyHex,
    DISCORD_BOT_TOKEN: "bench-discord-token",
    DISCORD_API_BASE_URL: stack.fakes.discord,
    TWILIO_ACCOUNT_SID: traffic.TWILIO_ACCOUNT_SID,
    TWILIO_AUTH_TOKEN: traffic.TWILIO_AUTH_TOKEN,
    TWILIO_PHONE_NUMBER: traffic.TWILIO_NUMBER,
    TWILIO_API_BASE_URL: stack.fakes.twilio,
    ...telegramVars(stack.fakes.telegram),
    ...googleChatVars(stack.fakes.googleChat),
    ...teamsVars(stack.fakes.teams),
    REDIS_KEY_PREFIX: keyPrefix,
    ...overrides,
  };
  const bindings = Object.fromEntries(
    Object.entries(vars).map(([name, value]) => [name, { type: "plain_text" as const, value }]),
  );
  return start({ config: benchConfig(), env: "", envFiles: [], bindings }, stack.port, logLevel);
}

export function startNoop(port: number): Promise<RunningWorker> {
  return start({ config: NOOP_CONFIG, envFiles: [] }, port);
}
