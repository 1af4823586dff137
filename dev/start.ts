/**
 * @module
 * `npm run dev`: the whole local stack on real parts. redis-server (its own, unless REDIS_URL is given), the Upstash
 * REST bridge, the QStash stand-in, the Upstash Vector stand-in (recall), the local model, the Slack, Discord and
 * Twilio fakes, the fake Discord Gateway, the simulator page and `wrangler dev`. Prints what runs where (with the
 * admin token), then one line per decision and per answer. Ctrl-C stops everything it started.
 * `npm run dev -- --help` lists the settings.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineCommand, parseCommandLine } from "./cli.ts";
import { formatDotenv, loadDevVars } from "./dev-vars.ts";
import { startDiscordFake } from "./fakes/discord.ts";
import { startDiscordGatewayFake } from "./fakes/discord-gateway.ts";
import { startSlackFake } from "./fakes/slack.ts";
import { startTwilioFake } from "./fakes/twilio.ts";
import { startLocalModel } from "./local-model/server.ts";
import { assertPortFree, freePort } from "./ports.ts";
import { startQStash } from "./qstash/server.ts";
import { startRedisServer } from "./redis-server.ts";
import { startSimulator } from "./simulator/server.ts";
import { STACK_PORTS, stackPorts } from "./stack-ports.ts";
import { startupTable } from "./startup-table.ts";
import { logLineJson, routeConsoleLogLines, terminalLine } from "./terminal-lines.ts";
import { startRedisBridge } from "./upstash-redis/server.ts";
import { DEV_VECTOR_TOKEN, startVectorStandIn } from "./upstash-vector/server.ts";
import { startWranglerDev } from "./wrangler-dev.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export const DEV_COMMAND = defineCommand({
  name: "npm run dev",
  summary:
    "Starts the whole stack on local stand-ins (no accounts, no network): the Worker in wrangler dev, a private " +
    "redis-server, the Upstash REST bridge, QStash, Upstash Vector, a local model, the Slack, Discord and Twilio fakes and the " +
    "simulator page. Worker settings come from .dev.vars (created from .dev.vars.example); an environment " +
    "variable of the same name overrides one.",
  options: {
    json: { type: "boolean", description: "print the Worker's raw JSON log lines instead of a readable line per decision and answer" },
  },
  settings: {
    ...Object.fromEntries(Object.values(STACK_PORTS).map((p) => [p.setting, `port of ${p.what} (default ${p.fallback})`])),
    REDIS_URL: "use this Redis instead of starting a private redis-server",
    ADMIN_TOKEN: "the admin view's token (default: a new one each run, printed at start)",
    OPENAI_API_KEY: "talk to a real model (OpenAI's, or OPENAI_BASE_URL's) instead of the local one",
    OPENAI_BASE_URL: "any OpenAI-compatible endpoint, with OPENAI_API_KEY",
  },
  notes: ["Any other Worker setting of README.md's Configuration table: in .dev.vars, or as an environment variable."],
});

const stops: (() => Promise<void>)[] = [];
let stopping = false;

async function stopAll(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    for (const stop of stops.reverse()) await stop().catch(() => {});
  }
  process.exit(code);
}

async function main(): Promise<void> {
  const mode = parseCommandLine(DEV_COMMAND).json ? "json" : "readable";
  const ports = stackPorts(process.env);
  routeConsoleLogLines(mode);
  const { vars, created } = loadDevVars(ROOT, process.env);
  if (created) console.log("created .dev.vars from .dev.vars.example");
  await Promise.all(
    Object.entries(STACK_PORTS).map(([part, { setting, what }]) => assertPortFree(ports[part as keyof typeof ports], `${what}, set ${setting}`)),
  );

  let redisUrl = process.env.REDIS_URL;
  let clearStore: (() => Promise<void>) | undefined;
  if (!redisUrl) {
    const redis = await startRedisServer(await freePort());
    stops.push(() => redis.stop());
    redisUrl = redis.url;
    // Only a Redis of the stack's own may be emptied from the page; a REDIS_URL may hold anything.
    clearStore = () => redis.flush();
  }
  const local = (p: number) => `http://127.0.0.1:${p}`;
  // Addresses of the stand-ins follow the chosen ports; a URL the person set to something else is kept.
  const isLocal = (key: string) => (vars.get(key) ?? "http://127.0.0.1").startsWith("http://127.0.0.1");
  const follow = (key: string, value: string) => {
    if (process.env[key] === undefined && isLocal(key)) vars.set(key, value);
  };
  follow("UPSTASH_REDIS_REST_URL", local(ports.redisRest));
  follow("QSTASH_URL", local(ports.qstash));
  follow("UPSTASH_VECTOR_REST_URL", local(ports.vector));
  // A .dev.vars from before recall: the stand-in's token, unless the index is a real one (its token is the person's).
  if (isLocal("UPSTASH_VECTOR_REST_URL") && !vars.get("UPSTASH_VECTOR_REST_TOKEN")) vars.set("UPSTASH_VECTOR_REST_TOKEN", DEV_VECTOR_TOKEN);
  follow("PUBLIC_BASE_URL", local(ports.worker));
  // A real key without a base URL means OpenAI itself, not the local model.
  if (process.env.OPENAI_API_KEY && !process.env.OPENAI_BASE_URL && isLocal("OPENAI_BASE_URL")) vars.delete("OPENAI_BASE_URL");
  else follow("OPENAI_BASE_URL", `${local(ports.model)}/v1`);
  follow("SLACK_API_BASE_URL", `${local(ports.slack)}/api`);
  follow("DISCORD_API_BASE_URL", `${local(ports.discord)}/api/v10`);
  // A ws:// URL, so `follow` (http) does not fit; same rule: a local address follows the port, another is kept.
  if (process.env.DISCORD_GATEWAY_URL === undefined && (vars.get("DISCORD_GATEWAY_URL") ?? "ws://127.0.0.1").startsWith("ws://127.0.0.1")) {
    vars.set("DISCORD_GATEWAY_URL", `ws://127.0.0.1:${ports.discordGateway}`);
  }
  follow("TWILIO_API_BASE_URL", local(ports.twilio));

  const bridge = await startRedisBridge({ port: ports.redisRest, redisUrl, token: vars.get("UPSTASH_REDIS_REST_TOKEN") ?? "" });
  stops.push(() => bridge.close());
  const qstash = await startQStash({ port: ports.qstash, redisUrl, token: vars.get("QSTASH_TOKEN") });
  stops.push(() => qstash.close());
  const vector = await startVectorStandIn({ port: ports.vector, redisUrl, token: vars.get("UPSTASH_VECTOR_REST_TOKEN") });
  stops.push(() => vector.close());
  const model = await startLocalModel({ port: ports.model });
  stops.push(() => model.close());
  const slack = await startSlackFake({ port: ports.slack });
  stops.push(() => slack.close());
  // The REST fake echoes the bot's channel posts through the Gateway fake, as Discord does.
  const discordGateway = await startDiscordGatewayFake({ port: ports.discordGateway });
  stops.push(() => discordGateway.close());
  const discord = await startDiscordFake({ port: ports.discord, gatewayUrl: discordGateway.url, onChannelMessage: discordGateway.dispatchMessage });
  stops.push(() => discord.close());
  const twilio = await startTwilioFake({ port: ports.twilio });
  stops.push(() => twilio.close());

  // The simulator reads the admin view; a token made up per run unless one is set (.dev.vars or the environment).
  if (!vars.get("ADMIN_TOKEN")) vars.set("ADMIN_TOKEN", process.env.ADMIN_TOKEN || randomBytes(24).toString("base64url"));
  // A .dev.vars written before TOKEN_ENCRYPTION_KEY existed: a key for this run (the stack's queue starts empty).
  if (!vars.get("TOKEN_ENCRYPTION_KEY")) vars.set("TOKEN_ENCRYPTION_KEY", randomBytes(32).toString("base64"));
  const simulator = await startSimulator({
    port: ports.simulator,
    workerUrl: local(ports.worker),
    vars,
    fakes: { slack: local(ports.slack), discord: local(ports.discord), twilio: local(ports.twilio) },
    discordGatewayControlUrl: discordGateway.controlUrl,
    ...(clearStore ? { clearStore } : {}),
  });
  stops.push(() => simulator.close());

  // One settings file and one state directory per Worker port: a second stack (the browser tests) must not touch a
  // running one's. The state starts empty, like the private Redis: a Gateway session of an earlier run is not resumed.
  const wranglerDir = resolve(ROOT, ".wrangler");
  const envFile = resolve(wranglerDir, `dev.vars.${ports.worker}.merged`);
  const stateDir = resolve(wranglerDir, "state", `dev-${ports.worker}`);
  const removeRunFiles = () => {
    rmSync(stateDir, { recursive: true, force: true });
    rmSync(envFile, { force: true });
  };
  removeRunFiles();
  mkdirSync(wranglerDir, { recursive: true });
  writeFileSync(envFile, formatDotenv(vars), { mode: 0o600 });
  stops.push(async () => removeRunFiles());
  const wrangler = startWranglerDev({
    root: ROOT,
    port: ports.worker,
    inspectorPort: ports.inspector,
    envFile,
    stateDir,
    // The Worker's log lines go to the simulator (it shows every decision beside its message); every line, told
    // apart, to the terminal: log lines and wrangler's own on stdout, anything else wrangler says where it said it.
    onLine: (line, stream) => {
      const json = logLineJson(line);
      if (json !== null) simulator.observeLogLine(json);
      const shown = terminalLine(line, mode);
      if (shown !== null) (json === null && stream === "stderr" ? process.stderr : process.stdout).write(`${shown}\n`);
    },
    onExit: (code) => {
      if (stopping) return;
      console.error(`wrangler dev exited (${code}); stopping the stack`);
      void stopAll(code ?? 1);
    },
  });
  stops.push(() => wrangler.stop());

  const ready = await workerAnswers(local(ports.worker));
  if (stopping) return;
  if (!ready) console.error(`the Worker did not answer ${local(ports.worker)}/health within ${WORKER_READY_MS / 1000} s: see wrangler's output above`);
  console.log(startupTable({ ports, redisUrl, gatewayUrl: discordGateway.url, adminToken: vars.get("ADMIN_TOKEN")!, mode }));
  if (ready && vars.get("DISCORD_BOT_TOKEN")) await wakeDiscordGateway(local(ports.worker));
}

/** How long wrangler may take to build and start the Worker. */
const WORKER_READY_MS = 60_000;
const READY_POLL_MS = 250;

async function workerAnswers(workerUrl: string): Promise<boolean> {
  const deadline = Date.now() + WORKER_READY_MS;
  while (Date.now() < deadline && !stopping) {
    try {
      if ((await fetch(`${workerUrl}/health`)).ok) return true;
    } catch {
      // wrangler is still starting
    }
    await new Promise((r) => setTimeout(r, READY_POLL_MS));
  }
  return false;
}

/**
 * In production a cron trigger wakes the Gateway Durable Object; `wrangler dev` fires no crons, so the launcher
 * fires the scheduled handler once, and the bot connects to the fake Gateway by itself.
 */
async function wakeDiscordGateway(workerUrl: string): Promise<void> {
  await (await fetch(`${workerUrl}/cdn-cgi/local/scheduled`)).body?.cancel();
}

process.on("SIGINT", () => void stopAll(0));
process.on("SIGTERM", () => void stopAll(0));
main().catch(async (err: unknown) => {
  console.error(`npm run dev: ${err instanceof Error ? err.message : String(err)}`);
  await stopAll(1);
});
