/**
 * @module
 * Measured savings: rebuilds the Worker with esbuild (same entry, workerd conditions, minified and keeping names as
 * wrangler.toml says, as wrangler builds it) leaving one package out or with one file's data tables emptied, and
 * reports how many gzipped bytes that removes. Answers "what would replacing X buy us" with a number, not a guess.
 */
import { build, type Plugin } from "esbuild";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { parse } from "smol-toml";
import { REPO_ROOT } from "./build.ts";
import { WORKER_ENTRY } from "./graph.ts";

/** String literals this long are data tables, not code. */
const DATA_LITERAL = /"(?:[^"\\\n]|\\.){1000,}"/g;

export interface Saving {
  what: string;
  gzipBytesSaved: number;
}

/** wrangler.toml's keep_names (wrangler's default: true). */
const KEEP_NAMES =
  (parse(readFileSync(join(REPO_ROOT, "wrangler.toml"), "utf8")) as { keep_names?: boolean }).keep_names ?? true;

async function gzippedBuild(opts: { external?: string[]; plugins?: Plugin[] }): Promise<number> {
  const result = await build({
    entryPoints: [WORKER_ENTRY],
    absWorkingDir: REPO_ROOT,
    bundle: true,
    minify: true,
    keepNames: KEEP_NAMES,
    format: "esm",
    platform: "neutral",
    target: "es2024",
    conditions: ["workerd", "worker", "browser", "import", "default"],
    mainFields: ["browser", "module", "main"],
    external: ["cloudflare:*", "node:*", ...(opts.external ?? [])],
    plugins: opts.plugins,
    write: false,
    logLevel: "silent",
  });
  return gzipSync(result.outputFiles[0]!.contents, { level: 9 }).length;
}

/** A plugin that loads the project's TypeScript files matching `filter` through `rewrite`. */
function rewriteSources(filter: RegExp, rewrite: (source: string) => string): Plugin {
  return {
    name: "rewrite-sources",
    setup(b) {
      b.onLoad({ filter }, async (args) => ({ contents: rewrite(await readFile(args.path, "utf8")), loader: "ts" }));
    },
  };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

export async function measureSavings(
  packages: readonly string[],
  dataFiles: readonly string[],
): Promise<{ baseline: number; savings: Saving[] }> {
  const baseline = await gzippedBuild({});
  const savings: Saving[] = [];
  for (const pkg of packages) {
    savings.push({
      what: `drop package ${pkg}`,
      gzipBytesSaved: baseline - (await gzippedBuild({ external: [pkg, `${pkg}/*`] })),
    });
  }
  for (const file of dataFiles) {
    const plugins = [rewriteSources(new RegExp(`${escapeRegExp(file)}$`), (src) => src.replace(DATA_LITERAL, '""'))];
    savings.push({
      what: `empty the data tables of ${file}`,
      gzipBytesSaved: baseline - (await gzippedBuild({ plugins })),
    });
  }
  return { baseline, savings };
}

/** The same small schema under zod's classic API and zod/mini: how much of zod's cost is the classic API itself. */
export async function zodMiniComparison(): Promise<{ classic: number; mini: number }> {
  const sample = (from: string, mini: boolean) =>
    `import * as z from "${from}";\nexport const schema = ${
      mini
        ? "z.object({ a: z.string().check(z.minLength(1)), n: z.optional(z.number()) })"
        : "z.object({ a: z.string().min(1), n: z.number().optional() })"
    };\nexport const parse = (v) => schema.safeParse(v);`;
  const size = async (contents: string) => {
    const r = await build({
      stdin: { contents, resolveDir: REPO_ROOT, loader: "js" },
      bundle: true,
      minify: true,
      format: "esm",
      platform: "neutral",
      mainFields: ["module", "main"],
      write: false,
      logLevel: "silent",
    });
    return gzipSync(r.outputFiles[0]!.contents, { level: 9 }).length;
  };
  return { classic: await size(sample("zod", false)), mini: await size(sample("zod/mini", true)) };
}
