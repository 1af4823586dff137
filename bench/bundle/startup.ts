/**
 * @module
 * Startup time of the bundled Worker in workerd (through wrangler's `unstable_startWorker`, no rebuild): time
 * until the runtime has loaded and evaluated the script, and the first request's latency, next to a do-nothing
 * script measured the same way, so the difference is the script's own cost.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { unstable_startWorker } from "wrangler";

const NOOP_SCRIPT = `export default { fetch() { return new Response("ok"); } };\n`;
const COMPATIBILITY_DATE = "2026-11-01";
/** Any path: the router answers 404 without touching Redis, so only the script's own cost is measured. */
const PROBE_URL = "http://worker.local/__startup_probe";

// Offline like `npm run dev`: without this, miniflare fetches Request.cf and prints a stack trace when it cannot.
process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";

export interface StartupTiming {
  readyMs: number;
  firstRequestMs: number;
}

async function timeOnce(scriptPath: string): Promise<StartupTiming> {
  const started = performance.now();
  const worker = await unstable_startWorker({
    name: "startup-probe",
    entrypoint: scriptPath,
    compatibilityDate: COMPATIBILITY_DATE,
    compatibilityFlags: ["nodejs_compat"],
    build: { bundle: false },
    dev: { server: { hostname: "127.0.0.1", port: 0 }, inspector: false, watch: false, logLevel: "none" },
  });
  try {
    await worker.ready;
    const ready = performance.now();
    const res = await worker.fetch(PROBE_URL);
    await res.arrayBuffer();
    return { readyMs: ready - started, firstRequestMs: performance.now() - ready };
  } finally {
    await worker.dispose();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Medians over `runs` cold starts of the Worker and of the do-nothing script, alternating. */
export async function measureStartup(
  scriptPath: string,
  runs = 3,
): Promise<{ worker: StartupTiming; noop: StartupTiming }> {
  const dir = await mkdtemp(join(tmpdir(), "parley-noop-"));
  const noopPath = join(dir, "noop.js");
  await writeFile(noopPath, NOOP_SCRIPT);
  const worker: StartupTiming[] = [];
  const noop: StartupTiming[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      noop.push(await timeOnce(noopPath));
      worker.push(await timeOnce(scriptPath));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const summarize = (list: StartupTiming[]) => ({
    readyMs: median(list.map((t) => t.readyMs)),
    firstRequestMs: median(list.map((t) => t.firstRequestMs)),
  });
  return { worker: summarize(worker), noop: summarize(noop) };
}
