/**
 * @module
 * `npm run dev`: the whole local stack on real parts. redis-server (its own, unless REDIS_URL is given), the Upstash
 * REST bridge, the QStash stand-in, the local model, the Slack, Discord and Twilio fakes, the fake Discord Gateway,
 * the simulator page and `wrangler dev`. Ctrl-C stops everything it started. Ports (each overridable by the
 * variable named): PORT 8787, REDIS_REST_PORT 8079, QSTASH_PORT 8080, LOCAL_MODEL_PORT 8090, SLACK_FAKE_PORT 8091,
 * DISCORD_FAKE_PORT 8092, TWILIO_FAKE_PORT 8093, DISCORD_GATEWAY_FAKE_PORT 8094, SIMULATOR_PORT 8788.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { formatDotenv, loadDevVars } from "./dev-vars.ts";
import { startDiscordFake } from "./fakes/discord.ts";
import { startDiscordGatewayFake } from "./fakes/discord-gateway.ts";
import { startSlackFake } from "./fakes/slack.ts";
import { startTwilioFake } from "./fakes/twilio.ts";
import { startLocalModel } from "./local-model/server.ts";
import { assertPortFree, freePort } from "./ports.ts";
import { startQStash } from "./qstash/server.ts";
import { startRedisServer, stopChild } from "./redis-server.ts";
import { startSimulator } from "./simulator/server.ts";
import { startRedisBridge } from "./upstash-redis/server.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

const ports = {
  worker: port("PORT", 8787),
  redisRest: port("REDIS_REST_PORT", 8079),
  qstash: port("QSTASH_PORT", 8080),
  model: port("LOCAL_MODEL_PORT", 8090),
  slack: port("SLACK_FAKE_PORT", 8091),
  discord: port("DISCORD_FAKE_PORT", 8092),
  discordGateway: port("DISCORD_GATEWAY_FAKE_PORT", 8094),
  twilio: port("TWILIO_FAKE_PORT", 8093),
  simulator: port("SIMULATOR_PORT", 8788),
};

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
  const { vars, created } = loadDevVars(ROOT, process.env);
  if (created) console.log("created .dev.vars from .dev.vars.example");
  await Promise.all([
    assertPortFree(ports.worker, "the Worker, set PORT"),
    assertPortFree(ports.redisRest, "the Upstash Redis REST bridge, set REDIS_REST_PORT"),
    assertPortFree(ports.qstash, "the QStash stand-in, set QSTASH_PORT"),
    assertPortFree(ports.model, "the local model, set LOCAL_MODEL_PORT"),
    assertPortFree(ports.slack, "the Slack fake, set SLACK_FAKE_PORT"),
    assertPortFree(ports.discord, "the Discord fake, set DISCORD_FAKE_PORT"),
    assertPortFree(ports.discordGateway, "the Discord Gateway fake, set DISCORD_GATEWAY_FAKE_PORT"),
    assertPortFree(ports.twilio, "the Twilio fake, set TWILIO_FAKE_PORT"),
    assertPortFree(ports.simulator, "the simulator page, set SIMULATOR_PORT"),
  ]);

  let redisUrl = process.env.REDIS_URL;
  if (!redisUrl) {
    const redis = await startRedisServer(await freePort());
    stops.push(() => redis.stop());
    redisUrl = redis.url;
  }
  const local = (p: number) => `http://127.0.0.1:${p}`;
  // Addresses of the stand-ins follow the chosen ports; a URL the person set to something else is kept.
  const isLocal = (key: string) => (vars.get(key) ?? "http://127.0.0.1").startsWith("http://127.0.0.1");
  const follow = (key: string, value: string) => {
    if (process.env[key] === undefined && isLocal(key)) vars.set(key, value);
  };
  follow("UPSTASH_REDIS_REST_URL", local(ports.redisRest));
  follow("QSTASH_URL", local(ports.qstash));
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
  const simulator = await startSimulator({
    port: ports.simulator,
    workerUrl: local(ports.worker),
    vars,
    fakes: { slack: local(ports.slack), discord: local(ports.discord), twilio: local(ports.twilio) },
    discordGatewayControlUrl: discordGateway.controlUrl,
  });
  stops.push(() => simulator.close());

  const envDir = resolve(ROOT, ".wrangler");
  mkdirSync(envDir, { recursive: true });
  // One file per Worker port: a second stack (the browser tests) must not rewrite the settings of a running one.
  const envFile = resolve(envDir, `dev.vars.${ports.worker}.merged`);
  writeFileSync(envFile, formatDotenv(vars), { mode: 0o600 });
  const wrangler = spawn(
    "npx",
    ["wrangler", "dev", "--ip", "127.0.0.1", "--port", String(ports.worker), "--env-file", envFile, "--show-interactive-dev-session=false"],
    { cwd: ROOT, stdio: ["inherit", "pipe", "inherit"], detached: true },
  );
  // The Worker's log lines go on to the terminal and to the simulator, which shows each decision and its reason.
  wrangler.stdout.pipe(process.stdout);
  createInterface({ input: wrangler.stdout }).on("line", (line) => simulator.observeLogLine(line));
  stops.push(async () => {
    // wrangler runs workerd as a child: signal the whole process group so nothing is left behind.
    if (wrangler.pid && wrangler.exitCode === null) {
      try {
        process.kill(-wrangler.pid, "SIGTERM");
      } catch {}
    }
    await stopChild(wrangler);
  });
  wrangler.once("exit", (code) => {
    if (!stopping) {
      console.error(`wrangler dev exited (${code}); stopping the stack`);
      void stopAll(code ?? 1);
    }
  });

  console.log(
    [
      "",
      "Parley local stack:",
      `  Worker            ${local(ports.worker)}   (curl ${local(ports.worker)}/health)`,
      `  Redis             ${redisUrl}`,
      `  Upstash REST      ${local(ports.redisRest)}`,
      `  QStash            ${local(ports.qstash)}`,
      `  Local model       ${local(ports.model)}/v1`,
      `  Slack API fake    ${local(ports.slack)}/api`,
      `  Discord API fake  ${local(ports.discord)}/api/v10`,
      `  Discord Gateway   ${discordGateway.url}   (control: ${local(ports.discordGateway)}/__message)`,
      `  Twilio API fake   ${local(ports.twilio)}`,
      `  Simulator page    ${local(ports.simulator)}   (open it in a browser)`,
      "Ctrl-C stops everything.",
      "",
    ].join("\n"),
  );
  if (vars.get("DISCORD_BOT_TOKEN")) await wakeDiscordGateway(local(ports.worker));
}

/** How long wrangler may take to build and start the Worker before the Gateway wake-up gives up. */
const WORKER_READY_MS = 60_000;

/**
 * In production a cron trigger wakes the Gateway Durable Object; `wrangler dev` fires no crons, so the launcher
 * fires the scheduled handler once the Worker answers, and the bot connects to the fake Gateway by itself.
 */
async function wakeDiscordGateway(workerUrl: string): Promise<void> {
  const deadline = Date.now() + WORKER_READY_MS;
  while (Date.now() < deadline && !stopping) {
    try {
      if ((await fetch(`${workerUrl}/health`)).ok) {
        await (await fetch(`${workerUrl}/cdn-cgi/local/scheduled`)).body?.cancel();
        console.log("woke the Discord Gateway connection (it connects to the Gateway fake)");
        return;
      }
    } catch {
      // wrangler is still starting
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

process.on("SIGINT", () => void stopAll(0));
process.on("SIGTERM", () => void stopAll(0));
main().catch(async (err: unknown) => {
  console.error(`npm run dev: ${err instanceof Error ? err.message : String(err)}`);
  await stopAll(1);
});
