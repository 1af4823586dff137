import { beforeAll, describe, expect, it } from "vitest";
import { buildWorkerBundle, type Metafile, type WorkerBundle } from "../../bench/bundle/build.ts";
import { edgeSafetyViolations } from "../../bench/bundle/edge-safe.ts";
import { reachableModules, WORKER_ENTRY } from "../../bench/bundle/graph.ts";

/** wrangler's build takes a few seconds alone and much longer on a busy 2-core CI machine. */
const BUILD_TIMEOUT_MS = 180_000;

function metafileOf(graph: Record<string, string[]>): Metafile {
  const inputs: Metafile["inputs"] = {};
  for (const [path, imports] of Object.entries(graph)) {
    inputs[path] = {
      bytes: 1,
      imports: imports.map((p) => ({
        path: p,
        kind: "import-statement",
        external: !p.includes("/") || p.includes(":"),
      })),
    };
  }
  return { inputs, outputs: {} };
}

describe("the Worker bundle stays edge-safe", () => {
  let bundle: WorkerBundle;
  beforeAll(async () => {
    bundle = await buildWorkerBundle();
  }, BUILD_TIMEOUT_MS);

  it("reaches no Node-only built-in, no dev/, bench/ or test/ file and no Node-only package from functions/index.ts", () => {
    const modules = reachableModules(bundle.metafile);
    expect(modules.map((m) => m.path)).toContain("lib/jobs/reply-job.ts");
    const problems = edgeSafetyViolations(modules).map((v) => `${v.module}: ${v.reason} (via ${v.via.join(" → ")})`);
    expect(problems).toEqual([]);
  });

  it("reaches zod only as zod/mini: classic zod, from any one import, adds about 17 KiB gzipped (npm run bench:bundle)", () => {
    const classic = reachableModules(bundle.metafile).filter((m) => m.path.startsWith("node_modules/zod/v4/classic/"));
    expect(classic.map((m) => m.via.join(" → "))).toEqual([]);
  });
});

describe("the edge-safety rules", () => {
  it("name the chain that pulls node:fs or a dev/ file into the Worker", () => {
    const meta = metafileOf({
      [WORKER_ENTRY]: ["lib/pipeline.ts", "cloudflare:workers"],
      "lib/pipeline.ts": ["node:fs", "node:buffer", "dev/ports.ts"],
      "dev/ports.ts": ["node:net"],
    });
    const violations = edgeSafetyViolations(reachableModules(meta));
    expect(violations.map((v) => v.module).sort()).toEqual(["dev/ports.ts", "node:fs", "node:net"]);
    expect(violations.find((v) => v.module === "node:fs")!.via).toEqual([WORKER_ENTRY, "lib/pipeline.ts", "node:fs"]);
  });

  it("refuse Node-only packages such as ws and ioredis", () => {
    const meta = metafileOf({
      [WORKER_ENTRY]: ["node_modules/ioredis/built/index.js"],
      "node_modules/ioredis/built/index.js": [],
    });
    expect(edgeSafetyViolations(reachableModules(meta))).toHaveLength(1);
  });
});
