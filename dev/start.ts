/**
 * @module
 * `npm run dev`: the whole local stack on real parts. redis-server (its own, unless REDIS_URL is given), the Upstash
 * REST bridge, the QStash stand-in, the Upstash Vector stand-in (recall), the local model, the Slack, Discord,
 * Twilio and Telegram fakes (the bot's webhook set on the Telegram fake, as `npm run telegram:set-webhook` does), the
 * fake Discord Gateway, the local tool server (dev/tools), the simulator page and `wrangler dev`. Prints what runs
 * where (with the
 * admin token), then one line per decision and per answer. Ctrl-C stops everything it started.
 * `npm run dev -- --help` lists the settings.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineCommand, parseCommandLine } from "./cli.ts";
import { formatDotenv, loadDevVars } from "./dev-vars.ts";
import { googleChatFakeOptions, startGoogleChatFake } from "./fakes/google-chat.ts";
import { startTeamsFake, teamsFakeOptions } from "./fakes/teams.ts";
import { startSlackFake } from "./fakes/slack.ts";
import { startTelegramFake } from "./fakes/telegram.ts";
import { startTwilioFake } from "./fakes/twilio.ts";
import { startLocalModel } from "./local-model/server.ts";
import { LocalStack } from "./local-stack.ts";
import { assertPortFree } from "./ports.ts";
import { startQStash } from "./qstash/server.ts";
import { describeSlackWorkspaces } from "./simulator/install-slack.ts";
import { startSimulator } from "./simulator/server.ts";
import { STACK_PORTS, stackPorts } from "./stack-ports.ts";
import { applyStackSettings } from "./stack-settings.ts";
import { startupTable } from "./startup-table.ts";
import { setTelegramWebhook } from "./telegram-set-webhook.ts";
import { logLineJson, routeConsoleLogLines, terminalLine } from "./terminal-lines.ts";
import { startToolServer } from "./tools/server.ts";
import { startRedisBridge } from "./upstash-redis/server.ts";
import { startVectorStandIn } from "./upstash-vector/server.ts";
import { startWranglerDev } from "./wrangler-dev.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export const DEV_COMMAND = defineCommand({
  name: "npm run dev",
  summary:
    "Starts the whole stack on local stand-ins (no accounts, no network): the Worker in wrangler dev, a private " +
    "redis-server, the Upstash REST bridge, QStash, Upstash Vector, a local model, the Slack, Discord, Twilio and Telegram fakes and the " +
    "simulator page. Worker settings come from .dev.vars (created from .dev.vars.example); an environment " +
    "variable of the same name overrides one.",
  options: {
    json: {
      type: "boolean",
      description: "print the Worker's raw JSON log lines instead of a readable line per decision and answer",
    },
  },
  settings: {
    ...Object.fromEntries(
      Object.values(STACK_PORTS).map((p) => [p.setting, `port of ${p.what} (default ${p.fallback})`]),
    ),
    REDIS_URL: "use this Redis instead of starting a private redis-server",
    ADMIN_TOKEN: "the admin view's token (default: a new one each run, printed at start)",
    OPENAI_API_KEY: "talk to a real model (OpenAI's, or OPENAI_BASE_URL's) instead of the local one",
    OPENAI_BASE_URL: "any OpenAI-compatible endpoint, with OPENAI_API_KEY",
  },
  notes: [
    "Any other Worker setting of docs/configuration.md's table: in .dev.vars, or as an environment variable (which " +
      "wins; the start-up table names each one taken from the environment).",
  ],
});

const stack = new LocalStack();
let stopping = false;

async function stopAll(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await stack.stop();
  }
  process.exit(code);
}

async function main(): Promise<void> {
  const mode = parseCommandLine(DEV_COMMAND).json ? "json" : "readable";
  const ports = stackPorts(process.env);
  routeConsoleLogLines(mode);
  const { vars, created, fromEnvironment } = loadDevVars(ROOT, process.env);
  if (created) console.log("created .dev.vars from .dev.vars.example");
  await Promise.all(
    Object.entries(STACK_PORTS).map(([part, { setting, what }]) =>
      assertPortFree(ports[part as keyof typeof ports], `${what}, set ${setting}`),
    ),
  );

  let redisUrl = process.env.REDIS_URL;
  let clearStore: (() => Promise<void>) | undefined;
  if (!redisUrl) {
    const redis = await stack.redisServer();
    redisUrl = redis.url;
    // Only a Redis of the stack's own may be emptied from the page; a REDIS_URL may hold anything.
    clearStore = () => redis.flush();
  }
  applyStackSettings(vars, ports, process.env);
  const local = (p: number) => `http://127.0.0.1:${p}`;

  await stack.start(startRedisBridge, {
    port: ports.redisRest,
    redisUrl,
    token: vars.get("UPSTASH_REDIS_REST_TOKEN") ?? "",
  });
  await stack.start(startQStash, { port: ports.qstash, redisUrl, token: vars.get("QSTASH_TOKEN") });
  await stack.start(startVectorStandIn, { port: ports.vector, redisUrl, token: vars.get("UPSTASH_VECTOR_REST_TOKEN") });
  await stack.start(startLocalModel, { port: ports.model });
  await stack.start(startToolServer, { port: ports.tools });
  await stack.start(startSlackFake, { port: ports.slack });
  const { gateway: discordGateway } = await stack.discord({
    rest: { port: ports.discord },
    gateway: { port: ports.discordGateway },
  });
  await stack.start(startTwilioFake, { port: ports.twilio });
  await stack.start(startTelegramFake, { port: ports.telegram });
  await stack.start(startGoogleChatFake, {
    port: ports.googleChat,
    ...googleChatFakeOptions(vars, local(ports.worker)),
  });
  await stack.start(startTeamsFake, { port: ports.teams, ...teamsFakeOptions(vars, local(ports.worker)) });

  const simulator = await stack.start(startSimulator, {
    port: ports.simulator,
    workerUrl: local(ports.worker),
    vars,
    fakes: {
      slack: local(ports.slack),
      discord: local(ports.discord),
      twilio: local(ports.twilio),
      telegram: local(ports.telegram),
      googleChat: local(ports.googleChat),
      teams: local(ports.teams),
    },
    discordGatewayControlUrl: discordGateway.controlUrl,
    ...(clearStore ? { clearStore } : {}),
  });

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
  stack.keep(async () => removeRunFiles());
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
  stack.keep(() => wrangler.stop());

  const ready = await workerAnswers(local(ports.worker));
  if (stopping) return;
  let slackWorkspaces = "none: the Worker did not start";
  if (!ready)
    console.error(
      `the Worker did not answer ${local(ports.worker)}/health within ${WORKER_READY_MS / 1000} s: see wrangler's output above`,
    );
  // Through the Worker's real install routes, before the page offers the workspaces (its setup waits for them).
  else {
    slackWorkspaces = await simulator.installSlackWorkspaces().then(describeSlackWorkspaces, (err: unknown) => {
      console.error(err instanceof Error ? err.message : String(err));
      return "none: see the error above";
    });
  }
  console.log(
    startupTable({
      ports,
      redisUrl,
      gatewayUrl: discordGateway.url,
      adminToken: vars.get("ADMIN_TOKEN")!,
      slackWorkspaces,
      fromEnvironment,
      mode,
    }),
  );
  if (ready && vars.get("DISCORD_BOT_TOKEN")) await wakeDiscordGateway(local(ports.worker));
  // As a deployment does once: the fake then delivers the page's Telegram messages to the Worker's webhook.
  if (ready && vars.get("TELEGRAM_BOT_TOKEN")) {
    await setTelegramWebhook({ ...Object.fromEntries(vars), PUBLIC_BASE_URL: local(ports.worker) }).catch(
      (err: unknown) =>
        console.error(`npm run telegram:set-webhook failed: ${err instanceof Error ? err.message : String(err)}`),
    );
  }
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
