/**
 * @module
 * Starts a private redis-server (no persistence) and stops it again. Used by `npm test` and `npm run dev`,
 * which must never depend on a Redis the machine happens to run. It runs in a process group of its own: a Ctrl-C
 * in the terminal reaches the launcher, which stops the stand-ins that use Redis first and Redis last, instead of
 * Redis dying at once under their connections (ioredis's ECONNREFUSED stack traces). Whatever way the launcher
 * exits, Redis goes with it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createConnection } from "node:net";

export interface RunningRedis {
  url: string;
  port: number;
  /** Empties every database (the simulator's "clear all"). */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 10_000;
const COMMAND_TIMEOUT_MS = 2_000;

export async function startRedisServer(port: number): Promise<RunningRedis> {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--protected-mode", "no"],
    { stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  child.once("exit", () => process.off("exit", killOnExit));
  const spawnError = new Promise<never>((_, reject) => {
    child.once("error", (err: NodeJS.ErrnoException) => {
      reject(
        err.code === "ENOENT"
          ? new Error(
              "redis-server is not on PATH. Install it (Debian/Ubuntu: `sudo apt-get install redis-server`, macOS: `brew install redis`) and try again.",
            )
          : err,
      );
    });
  });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  child.stderr?.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  const exited = new Promise<never>((_, reject) => {
    child.once("exit", (code) => reject(new Error(`redis-server exited with code ${code}: ${output.trim()}`)));
  });
  await Promise.race([waitForPing(port), spawnError, exited]);
  exited.catch(() => {});
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    flush: async () => {
      const answer = await inlineCommand(port, "FLUSHALL");
      if (answer !== "+OK") throw new Error(`redis-server answered FLUSHALL with ${answer ?? "nothing"}`);
    },
    stop: () => stopChild(child),
  };
}

async function waitForPing(port: number): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (await ping(port)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis-server did not answer PING on port ${port} within ${READY_TIMEOUT_MS} ms`);
}

async function ping(port: number): Promise<boolean> {
  return (await inlineCommand(port, "PING")) === "+PONG";
}

/** One inline command (no arguments) on a fresh connection: the first line of the answer, or null. */
function inlineCommand(port: number, command: string): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" });
    socket.setTimeout(COMMAND_TIMEOUT_MS);
    socket.once("connect", () => socket.write(`${command}\r\n`));
    socket.once("data", (d) => {
      socket.destroy();
      resolve(d.toString().split("\r\n")[0] ?? null);
    });
    socket.once("error", () => resolve(null));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(null);
    });
  });
}

/** SIGTERM, then SIGKILL if the process lingers: Ctrl-C must leave nothing behind. */
export function stopChild(child: ChildProcess, graceMs = 3_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
