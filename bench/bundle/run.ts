/**
 * @module
 * `node bench/bundle/run.ts [--json] [--check]`: the size of what `npm run build` produced (the bundle `wrangler
 * deploy` uploads) against the 280 KiB target, what takes the space (and what leaving each big piece out would save,
 * measured), Node-only modules that slipped in, and the startup time in workerd next to a do-nothing Worker.
 * `--check` exits 1 when a target is missed.
 */
import { gzipSync } from "node:zlib";
import { defineCommand, parseCommandLine } from "../../dev/cli.ts";
import { buildScript, buildWorkerBundle } from "./build.ts";
import { contributors, largestInputs } from "./contributors.ts";
import { edgeSafetyViolations } from "./edge-safe.ts";
import { reachableModules } from "./graph.ts";
import { measureStartup } from "./startup.ts";
import { measureSavings, zodMiniComparison } from "./what-if.ts";

/** Cloudflare's limit is far above; this leaves room for what the next features add. */
const TARGET_GZIP_BYTES = 280 * 1024;
/** Cloudflare refuses a Worker whose global scope takes longer than this to evaluate. */
const STARTUP_LIMIT_MS = 1_000;
const SUSPECT_PACKAGES = ["openai", "zod", "@upstash/redis", "@upstash/qstash", "@upstash/vector", "hono"];
const DATA_FILES = ["lib/context/o200k-facts.ts"];
const TOP = 12;

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const args = parseCommandLine(
  defineCommand({
    name: "npm run bench:bundle",
    summary:
      "Builds the Worker as `npm run build` does and prints its size against the 280 KiB target, what takes the space " +
      "(and what leaving each big piece out would save, measured), Node-only modules that slipped in, and its startup " +
      "time in workerd next to a do-nothing Worker.",
    options: {
      json: { type: "boolean", default: false, description: "end with one JSON line of the figures" },
      check: { type: "boolean", default: false, description: "exit 1 when a target is missed" },
    },
  }),
);

const bundle = await buildWorkerBundle();
const gzipBytes = gzipSync(bundle.script, { level: 9 }).length;
const groups = contributors(bundle.metafile);
const violations = edgeSafetyViolations(reachableModules(bundle.metafile));
const { baseline, savings } = await measureSavings(SUSPECT_PACKAGES, DATA_FILES);
const zod = await zodMiniComparison();
const startup = await measureStartup(bundle.scriptPath);
const overTarget = bundle.uploadGzipBytes > TARGET_GZIP_BYTES;

console.log(`Worker bundle of npm run build (${buildScript()}):`);
console.log(
  `  ${kib(bundle.script.length)} minified; gzipped ${kib(bundle.uploadGzipBytes)} as wrangler counts the upload, ${kib(gzipBytes)} with gzip -9`,
);
console.log(
  `  target ≤ ${kib(TARGET_GZIP_BYTES)} gzipped: ${overTarget ? `OVER by ${kib(bundle.uploadGzipBytes - TARGET_GZIP_BYTES)}` : `met, ${kib(TARGET_GZIP_BYTES - bundle.uploadGzipBytes)} to spare`}`,
);
console.log(`\nBiggest contributors (minified bytes in the script, share):`);
for (const g of groups.slice(0, TOP))
  console.log(`  ${g.name.padEnd(28)} ${kib(g.bytes).padStart(10)}  ${(g.share * 100).toFixed(1)}%`);
console.log(`\nLargest single inputs:`);
for (const f of largestInputs(bundle.metafile, 8)) console.log(`  ${f.path.padEnd(60)} ${kib(f.bytes).padStart(10)}`);
console.log(`\nMeasured savings (esbuild rebuilds as wrangler builds, ${kib(baseline)} gzipped -9 before; gzipped):`);
for (const s of savings) console.log(`  ${s.what.padEnd(52)} −${kib(s.gzipBytesSaved)}`);
console.log(`  zod classic vs zod/mini for the same small schema    ${kib(zod.classic)} vs ${kib(zod.mini)}`);
console.log(`\nStartup in workerd (median of 3 cold starts; do-nothing Worker in brackets):`);
console.log(`  load + evaluate ${startup.worker.readyMs.toFixed(0)} ms (${startup.noop.readyMs.toFixed(0)} ms)`);
console.log(
  `  first request   ${startup.worker.firstRequestMs.toFixed(1)} ms (${startup.noop.firstRequestMs.toFixed(1)} ms)`,
);
console.log(
  `  script's own share ≈ ${(startup.worker.readyMs - startup.noop.readyMs).toFixed(0)} ms (limit ${STARTUP_LIMIT_MS} ms)`,
);
console.log(
  `\nEdge safety: ${violations.length === 0 ? "no Node-only modules reached from the entry" : `${violations.length} problem(s)`}`,
);
for (const v of violations) console.log(`  ${v.module}: ${v.reason} (via ${v.via.join(" → ")})`);

if (args.json) {
  console.log(
    JSON.stringify({
      build: buildScript(),
      minified_bytes: bundle.script.length,
      gzip_bytes: bundle.uploadGzipBytes,
      gzip9_bytes: gzipBytes,
      target_gzip_bytes: TARGET_GZIP_BYTES,
      startup_ready_ms: Math.round(startup.worker.readyMs),
      noop_ready_ms: Math.round(startup.noop.readyMs),
      first_request_ms: Number(startup.worker.firstRequestMs.toFixed(1)),
      contributors: groups.slice(0, TOP).map((g) => ({ name: g.name, bytes: g.bytes })),
      whatif_baseline_gzip9_bytes: baseline,
      savings: savings.map((s) => ({ what: s.what, gzip_bytes: s.gzipBytesSaved })),
      zod_small_schema_gzip_bytes: zod,
      edge_violations: violations.length,
    }),
  );
}
if (args.check && (overTarget || violations.length > 0)) process.exitCode = 1;
