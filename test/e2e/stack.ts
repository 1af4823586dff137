/**
 * @module
 * Starts the stack exactly as `npm run dev` does (node dev/start.ts), on free ports, and stops it with the same
 * signal Ctrl-C sends (with `terminal`, to its whole process group, as a terminal does). The browser tests drive the
 * simulator page it serves.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../../dev/ports.ts";
import { PORT_SETTINGS } from "../../dev/stack-ports.ts";
import { WORKER_SETTINGS } from "../../dev/worker-settings.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** wrangler dev bundles and boots workerd: slow on a busy 2-core machine. */
const READY_TIMEOUT_MS = 120_000;
const STOP_GRACE_MS = 15_000;
/** wrangler holds requests while a build is pending: a probe must not wait on one forever. */
const PROBE_TIMEOUT_MS = 2_000;
const STACK_SETTING =
  /^(DISCORD|SLACK|TWILIO|OPENAI|BOT|QSTASH|UPSTASH|SMS)_|^(REDIS_URL|ADMIN_TOKEN|PUBLIC_BASE_URL|LLM_MODEL)$/;

export interface RunningStack {
  workerUrl: string;
  simulatorUrl: string;
  adminToken: string;
  /** The Slack fake's origin (its control routes: dev/fakes/README.md). */
  slackFakeUrl: string;
  /** The Google Chat fake's origin (`GET /__deliveries`: what it sent the Worker). */
  googleChatFakeUrl: string;
  /** The local model's origin (`POST /__script` scripts its answers: dev/local-model/script.ts). */
  modelUrl: string;
  /** The stack's Redis through its Upstash REST bridge: one command, its result. */
  redis(command: (string | number)[]): Promise<unknown>;
  /** What the stack printed (the last 20,000 characters): what a developer sees, and a failure's evidence. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * A free port can be taken by someone else before the stack binds it (other test projects run beside these, and a
 * busy machine's outgoing connections use the same port range): the launcher then stops at once, naming the port,
 * and the stack starts again on other ports. The port can also go between the launcher's check and a part's own
 * bind: that part then fails with the bare EADDRINUSE.
 */
const PORT_ATTEMPTS = 6;
const PORT_TAKEN = /port \d+ \(.*\) is already in use|EADDRINUSE/;

export interface StackOptions {
  /** Runs it in a process group of its own, stopped as a terminal's Ctrl-C stops one: SIGINT to the whole group. */
  terminal?: boolean;
  /** Worker settings given through the environment, as a developer would (`PROMPT_TOKEN_BUDGET=600 npm run dev`). */
  settings?: Record<string, string>;
}

export async function startStack(opts: StackOptions = {}): Promise<RunningStack> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startStackOnFreePorts(opts);
    } catch (err) {
      if (attempt >= PORT_ATTEMPTS || !(err instanceof Error) || !PORT_TAKEN.test(err.message)) throw err;
    }
  }
}

async function startStackOnFreePorts(opts: StackOptions): Promise<RunningStack> {
  const ports: Record<string, string> = {};
  for (const name of PORT_SETTINGS) ports[name] = String(await freePort());
  const adminToken = randomBytes(24).toString("base64url");
  const redisToken = randomBytes(24).toString("base64url");
  const local = (name: string) => `http://127.0.0.1:${ports[name]}`;
  const child = spawn(process.execPath, ["dev/start.ts"], {
    cwd: ROOT,
    env: {
      ...inheritedEnv(),
      ...ports,
      ADMIN_TOKEN: adminToken,
      UPSTASH_REDIS_REST_TOKEN: redisToken,
      // Always the local model, whatever the developer's environment says: the answers must be deterministic.
      OPENAI_API_KEY: "local",
      OPENAI_BASE_URL: `${local("LOCAL_MODEL_PORT")}/v1`,
      BOT_NAME: "Parley",
      USE_LLM_JUDGE: "false",
      CONVERSATION_TIMEOUT_SECONDS: "120",
      ...opts.settings,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: opts.terminal ?? false,
  });
  let output = "";
  const keep = (chunk: Buffer) => void (output = (output + chunk.toString("utf8")).slice(-20_000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const stack: RunningStack = {
    workerUrl: local("PORT"),
    simulatorUrl: local("SIMULATOR_PORT"),
    adminToken,
    slackFakeUrl: local("SLACK_FAKE_PORT"),
    googleChatFakeUrl: local("GOOGLE_CHAT_FAKE_PORT"),
    modelUrl: local("LOCAL_MODEL_PORT"),
    redis: async (command) => {
      const res = await fetch(local("REDIS_REST_PORT"), {
        method: "POST",
        headers: { Authorization: `Bearer ${redisToken}` },
        body: JSON.stringify(command),
      });
      return ((await res.json()) as { result: unknown }).result;
    },
    output: () => output,
    stop: () => stopStack(child, opts.terminal ?? false),
  };
  try {
    await waitUntilReady(child, [`${stack.workerUrl}/health`, `${stack.simulatorUrl}/api/setup`]);
  } catch (err) {
    await stack.stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- npm run dev output ---\n${output}`);
  }
  return stack;
}

/** The shell's environment without the settings `npm run dev` would take over: the stack must be the test's own. */
function inheritedEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (STACK_SETTING.test(key) || WORKER_SETTINGS.has(key)) delete env[key];
  return env;
}

async function waitUntilReady(child: ChildProcess, urls: string[]): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm run dev exited with ${child.exitCode}`);
    const answers = await Promise.all(
      urls.map((url) =>
        fetch(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) }).then(
          (r) => r.ok,
          () => false,
        ),
      ),
    );
    if (answers.every(Boolean)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the stack was not ready within ${READY_TIMEOUT_MS} ms`);
}

/** SIGINT, as Ctrl-C: dev/start.ts stops everything it started, wrangler's process group included. */
function stopStack(child: ChildProcess, group: boolean): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
    child.once("exit", () => {
      clearTimeout(timer);
      done();
    });
    if (group && child.pid) process.kill(-child.pid, "SIGINT");
    else child.kill("SIGINT");
  });
}
