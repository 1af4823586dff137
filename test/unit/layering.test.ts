/**
 * @module
 * The house's one way through (docs/architecture.md): every import of lib/ and functions/ goes to the same or a
 * lower level of the table below, no files import each other in a circle (in lib/, functions/ or dev/), a platform
 * folder imports only the contract, its own folder and the base, the job flows are imported only by the Worker's
 * routes, no lib file knows Hono or the Workers runtime, and lib files stay readable in one sitting. The imports
 * are read as written, type-only ones included: a type that points upward ties the house as tightly as a value.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve, dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { PLATFORMS } from "../../lib/message.ts";

const ROOT = resolve(import.meta.dirname, "../..");

/**
 * The cross-cutting features, one folder each, whose files sit at several levels: each file is named with its own
 * level (the test below fails for a file of these folders that is not), and imports down from there like any.
 */
const FEATURES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "lib/approvals/": {
    "open.ts": "flows",
    "continuation.ts": "flows",
    "decide.ts": "flows",
    "capability.ts": "platforms",
    "store.ts": "stores",
    "record.ts": "stores",
    "answer-scripts.ts": "stores",
    "settle-script.ts": "stores",
  },
  "lib/catch-up/": {
    "step.ts": "flows",
    "pages.ts": "flows",
    "progress-line.ts": "flows",
    "progress.ts": "stores",
    "model.ts": "model",
    "request.ts": "base",
  },
  "lib/digests/": {
    "run.ts": "flows",
    "command.ts": "flows",
    "personal-run.ts": "flows",
    "personal-command.ts": "flows",
    "capability.ts": "platforms",
    "personal.ts": "stores",
    "slots.ts": "stores",
    "plan.ts": "base",
  },
  "lib/feedback/": {
    "offer.ts": "flows",
    "press.ts": "flows",
    "capability.ts": "platforms",
    "store.ts": "stores",
  },
  "lib/stop/": {
    "press.ts": "flows",
    "capability.ts": "platforms",
  },
  "lib/rescue/": {
    "job.ts": "flows",
    "capability.ts": "platforms",
    "schedule.ts": "stores",
    "questions.ts": "model",
  },
};
const featureFiles = (level: string) =>
  Object.entries(FEATURES).flatMap(([folder, entries]) =>
    Object.entries(entries).flatMap(([file, at]) => (at === level ? [`${folder}${file}`] : [])),
  );

/**
 * Levels, highest first. A file's level is that of the longest prefix of its path in this table; an import may go
 * to its own level or below, never above.
 */
const LEVELS: readonly (readonly [level: string, prefixes: readonly string[]])[] = [
  ["entry", ["functions/"]],
  ["flows", ["lib/ingest.ts", "lib/jobs/", ...featureFiles("flows")]],
  ["runtime", ["lib/runtime.ts"]],
  ["platforms", ["lib/platforms/", ...featureFiles("platforms")]],
  [
    "stores",
    [
      "lib/conversation/",
      "lib/memory/",
      "lib/limits/",
      "lib/tenants/",
      "lib/queue/",
      "lib/opt-outs.ts",
      "lib/places/",
      "lib/tools/",
      "lib/stores.ts",
      ...featureFiles("stores"),
    ],
  ],
  ["model", ["lib/decide/", "lib/context/", "lib/llm/", ...featureFiles("model")]],
  ["base", ["lib/", ...featureFiles("base")]],
];
/** What every platform folder may import besides its own folder and the base level. */
const PLATFORM_CONTRACT = [
  "lib/platforms/adapter.ts",
  "lib/platforms/answer-stream.ts",
  "lib/platforms/answer-format.ts",
  "lib/platforms/history.ts",
  "lib/platforms/parts.ts",
  "lib/platforms/json-body.ts",
  "lib/platforms/file-fetch.ts",
  "lib/platforms/rate-limited.ts",
  "lib/platforms/optional-read.ts",
  "lib/platforms/bearer-jwt.ts",
  "lib/platforms/jwt-keys.ts",
  "lib/platforms/kept-token.ts",
  ...featureFiles("platforms"),
];
const MAX_LIB_LINES = 250;
const FORBIDDEN_IN_LIB = ["hono", "cloudflare:workers"];

/** The flows and the routes: they read and write Redis through the runtime's stores, never themselves. */
const REDIS_FREE = ["functions/", "lib/jobs/", "lib/ingest.ts"];
const REACHES_REDIS: readonly (readonly [what: string, pattern: RegExp])[] = [
  ["the Redis client (rt.redis)", /\.redis\b/],
  ["the Redis package", /["']@upstash\/redis/],
  ["the key prefix (REDIS_KEY_PREFIX)", /REDIS_KEY_PREFIX/],
  ["a key built from lib/keys.ts", /\b[a-z][A-Za-z]*Keys?(?:At|OfPlace)?\(/],
];

/** The one module that sends EVAL and EVALSHA (defineScript): keys by name, arguments as one table, zod result. */
const SCRIPT_RUNNER = "lib/redis-script.ts";
const RUNS_LUA = /\.(?:eval|evalsha|evalRo|evalshaRo)\s*(?:<[^>]*>)?\(|\bcreateScript\b|#!lua/;

const IMPORT = /^\s*(?:import|export)\s(?:[^;]*?\sfrom\s)?["']([^"']+)["']/gm;

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name === "public" ? [] : filesUnder(path);
    return /\.ts$/.test(entry.name) ? [path] : [];
  });
}

interface SourceFile {
  path: string;
  lines: number;
  /** Repository paths of the relative imports; bare specifiers (packages) as written. */
  imports: string[];
}

function read(path: string): SourceFile {
  const text = readFileSync(join(ROOT, path), "utf8");
  const imports = [...text.matchAll(IMPORT)].map(([, spec]) =>
    spec!.startsWith(".") ? relative(ROOT, resolve(ROOT, dirname(path), spec!)) : spec!,
  );
  return { path, lines: text.split("\n").length - (text.endsWith("\n") ? 1 : 0), imports };
}

const files = new Map(["lib", "functions", "dev"].flatMap(filesUnder).map((path) => [path, read(path)]));
const layered = [...files.values()].filter((f) => f.path.startsWith("lib/") || f.path.startsWith("functions/"));

function levelOf(path: string): number {
  let best = { index: -1, length: -1 };
  LEVELS.forEach(([, prefixes], index) => {
    for (const prefix of prefixes)
      if (path.startsWith(prefix) && prefix.length > best.length) best = { index, length: prefix.length };
  });
  return best.index;
}

const levelName = (path: string) => LEVELS[levelOf(path)]?.[0] ?? "none";
const platformFolder = (path: string) => /^lib\/platforms\/([^/]+)\//.exec(path)?.[1];

/** Strongly connected groups of more than one file (Tarjan), each sorted. */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) found.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("the house's layering", () => {
  it("reads a level for every file of lib/ and functions/", () => {
    expect(layered.filter((f) => levelOf(f.path) < 0).map((f) => f.path)).toEqual([]);
    expect(layered.length).toBeGreaterThan(100);
  });

  it("names each file of a feature folder with its level", () => {
    const unnamed = layered.flatMap((f) =>
      Object.entries(FEATURES).flatMap(([folder, entries]) =>
        f.path.startsWith(folder) && !(f.path.slice(folder.length) in entries) ? [f.path] : [],
      ),
    );
    expect(unnamed).toEqual([]);
  });

  it("has every import go to the same or a lower level", () => {
    const upward = layered.flatMap((f) =>
      f.imports
        .filter((to) => files.has(to) && levelOf(to) >= 0 && levelOf(to) < levelOf(f.path))
        .map((to) => `${f.path} (${levelName(f.path)}) → ${to} (${levelName(to)})`),
    );
    expect(upward).toEqual([]);
  });

  it("has no files importing each other in a circle in lib/, functions/ or dev/", () => {
    const graph = new Map([...files.values()].map((f) => [f.path, f.imports.filter((to) => files.has(to))]));
    expect(cycles(graph)).toEqual([]);
  });

  it("keeps each platform folder to the contract, its own folder and the base", () => {
    const strays = layered.flatMap((f) => {
      const own = platformFolder(f.path);
      if (!own) return [];
      return f.imports
        .filter((to) => files.has(to))
        .filter((to) => platformFolder(to) !== own && !PLATFORM_CONTRACT.includes(to) && levelName(to) !== "base")
        .map((to) => `${f.path} → ${to}`);
    });
    expect(strays).toEqual([]);
  });

  it("has the job flows imported only by the Worker's routes", () => {
    const isFlow = (path: string) => levelName(path) === "flows";
    const strays = layered.flatMap((f) =>
      f.path.startsWith("functions/") || isFlow(f.path)
        ? []
        : f.imports.filter(isFlow).map((to) => `${f.path} → ${to}`),
    );
    expect(strays).toEqual([]);
  });

  it("keeps Hono and the Workers runtime out of lib/", () => {
    const strays = layered
      .filter((f) => f.path.startsWith("lib/"))
      .flatMap((f) =>
        f.imports
          .filter((to) => FORBIDDEN_IN_LIB.some((p) => to === p || to.startsWith(`${p}/`)))
          .map((to) => `${f.path} → ${to}`),
      );
    expect(strays).toEqual([]);
  });

  it("names a platform only in its own folder and route files, the neutral types and the settings", () => {
    const names = PLATFORMS.map((p) => `"${p}"`);
    const allowed = (path: string) =>
      ["lib/message.ts", "lib/config.ts"].includes(path) ||
      PLATFORMS.some(
        (p) =>
          path.startsWith(`lib/platforms/${p}/`) || path === `functions/${p}.ts` || path.startsWith(`functions/${p}-`),
      );
    const strays = layered
      .filter((f) => !allowed(f.path) && !f.path.endsWith(".test.ts"))
      .flatMap((f) => (names.some((name) => readFileSync(join(ROOT, f.path), "utf8").includes(name)) ? [f.path] : []));
    expect(strays).toEqual([]);
  });

  it("has the flows and the routes reach Redis only through the runtime's stores", () => {
    const strays = layered
      .filter((f) => REDIS_FREE.some((prefix) => f.path.startsWith(prefix)) && !f.path.endsWith(".test.ts"))
      .flatMap((f) => {
        const text = readFileSync(join(ROOT, f.path), "utf8");
        return REACHES_REDIS.filter(([, pattern]) => pattern.test(text)).map(([what]) => `${f.path}: ${what}`);
      });
    // One place per key: its builder in lib/keys.ts, one method of its store (lib/stores.ts, built once per
    // runtime and bound to REDIS_KEY_PREFIX), its row in docs/data-kept.md. A flow that reached Redis itself would
    // be a second place to read and write a key, and a second place to get its prefix, TTL and locking wrong.
    expect(strays, "use a store of the runtime (lib/stores.ts) instead").toEqual([]);
  });

  it("runs Lua scripts only through lib/redis-script.ts (named keys, one table of arguments, EVALSHA, zod)", () => {
    const strays = layered
      .filter((f) => f.path !== SCRIPT_RUNNER && !f.path.endsWith(".test.ts"))
      .filter((f) => RUNS_LUA.test(readFileSync(join(ROOT, f.path), "utf8")))
      .map((f) => f.path);
    expect(strays).toEqual([]);
  });

  it(`keeps every lib file within ${MAX_LIB_LINES} lines`, () => {
    const long = layered
      .filter((f) => f.path.startsWith("lib/") && f.lines > MAX_LIB_LINES)
      .map((f) => `${f.path}: ${f.lines}`);
    expect(long).toEqual([]);
  });
});
