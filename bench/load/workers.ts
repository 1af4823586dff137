/**
 * @module
 * Starts Workers for bench/load in workerd through wrangler's `unstable_startWorker`: the real Worker from
 * wrangler.toml with the bench's settings as bindings, and the do-nothing Worker, the same way, on loopback.
 */
import { join } from "node:path";
import { unstable_startWorker } from "wrangler";
import { REPO_ROOT } from "../bundle/build.ts";

export interface RunningWorker {
  url: string;
  stop(): Promise<void>;
}

/** A config of its own: without one, wrangler would read the repository's wrangler.toml and its bindings. */
const NOOP_CONFIG = join(import.meta.dirname, "noop.wrangler.toml");

async function start(input: Parameters<typeof unstable_startWorker>[0], port: number): Promise<RunningWorker> {
  const worker = await unstable_startWorker({
    ...input,
    dev: { server: { hostname: "127.0.0.1", port }, inspector: false, watch: false, logLevel: "none" },
  });
  await worker.ready;
  return { url: `http://127.0.0.1:${port}`, stop: () => worker.dispose() };
}

export function startParley(port: number, vars: Record<string, string>): Promise<RunningWorker> {
  const bindings = Object.fromEntries(Object.entries(vars).map(([name, value]) => [name, { type: "plain_text" as const, value }]));
  return start({ config: join(REPO_ROOT, "wrangler.toml"), env: "", envFiles: [], bindings }, port);
}

export function startNoop(port: number): Promise<RunningWorker> {
  return start({ config: NOOP_CONFIG, envFiles: [] }, port);
}
