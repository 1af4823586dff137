/**
 * @module
 * Runs `wrangler dev` for the launcher: on the chosen Worker and inspector ports with local state of its own (so two
 * stacks run side by side), offline (no Request.cf fetch), with the scheduled handler reachable (the launcher fires
 * the cron itself), and stops its whole process group, workerd included.
 */
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { stopChild } from "./redis-server.ts";

export interface WranglerDevOptions {
  root: string;
  port: number;
  inspectorPort: number;
  /** The Worker's settings, a dotenv file. */
  envFile: string;
  /** Where workerd keeps the Durable Objects' storage: one directory per stack. */
  stateDir: string;
  /** Each line wrangler prints: the Worker's log lines (console.warn and console.error on stderr), wrangler's own. */
  onLine(line: string, stream: "stdout" | "stderr"): void;
  /** wrangler ended by itself (not through `stop`). */
  onExit(code: number | null): void;
}

export interface RunningWrangler {
  stop(): Promise<void>;
}

export function startWranglerDev(opts: WranglerDevOptions): RunningWrangler {
  const args = [
    // wrangler's own script under this Node, not npx: no npm start-up and no npm warnings in the terminal.
    resolve(opts.root, "node_modules/wrangler/bin/wrangler.js"),
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    String(opts.port),
    "--inspector-port",
    String(opts.inspectorPort),
    "--env-file",
    opts.envFile,
    "--persist-to",
    opts.stateDir,
    "--show-interactive-dev-session=false",
    // The launcher fires the cron itself; this also silences "Scheduled Workers are not automatically triggered".
    "--test-scheduled",
  ];
  const child = spawn(process.execPath, args, {
    cwd: opts.root,
    // The stack is offline: Request.cf gets its fallback data instead of a failed fetch with a stack trace.
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    stdio: ["inherit", "pipe", "pipe"],
    detached: true,
  });
  createInterface({ input: child.stdout! }).on("line", (line) => opts.onLine(line, "stdout"));
  createInterface({ input: child.stderr! }).on("line", (line) => opts.onLine(line, "stderr"));
  let stopping = false;
  child.once("exit", (code) => {
    if (!stopping) opts.onExit(code);
  });
  return {
    async stop() {
      stopping = true;
      // wrangler runs workerd as a child: signal the whole process group so nothing is left behind.
      if (child.pid && child.exitCode === null) {
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {}
      }
      await stopChild(child);
    },
  };
}
