/**
 * @module
 * Builds the Worker exactly as `wrangler deploy` would (dry run, minified like production uploads are measured) and
 * returns the script and esbuild's metafile, so the bench and the edge-safety test look at the real bundle.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const REPO_ROOT = resolve(import.meta.dirname, "../..");
const WRANGLER_BIN = join(REPO_ROOT, "node_modules/wrangler/bin/wrangler.js");
const METAFILE_NAME = "meta.json";

export interface Metafile {
  inputs: Record<string, { bytes: number; imports: { path: string; kind: string; external?: boolean; original?: string }[] }>;
  outputs: Record<string, { bytes: number; inputs: Record<string, { bytesInOutput: number }> }>;
}

export interface WorkerBundle {
  outdir: string;
  script: Buffer;
  scriptPath: string;
  metafile: Metafile;
  /** Removes the build directory. */
  dispose(): Promise<void>;
}

export async function buildWorkerBundle(opts: { minify?: boolean } = {}): Promise<WorkerBundle> {
  const outdir = await mkdtemp(join(tmpdir(), "parley-bundle-"));
  const args = [WRANGLER_BIN, "deploy", "--dry-run", "--env=", "--outdir", outdir, "--metafile", join(outdir, METAFILE_NAME)];
  if (opts.minify ?? true) args.push("--minify");
  await run(process.execPath, args);
  const scriptName = (await readdir(outdir)).find((f) => f.endsWith(".js"));
  if (!scriptName) throw new Error(`wrangler wrote no script into ${outdir}`);
  const scriptPath = join(outdir, scriptName);
  return {
    outdir,
    scriptPath,
    script: await readFile(scriptPath),
    metafile: JSON.parse(await readFile(join(outdir, METAFILE_NAME), "utf8")) as Metafile,
    dispose: () => rm(outdir, { recursive: true, force: true }),
  };
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, CI: "1" } });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c));
    child.stderr.on("data", (c: Buffer) => (output += c));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolvePromise() : reject(new Error(`wrangler exited ${code}:\n${output}`))));
  });
}
