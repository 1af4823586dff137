/**
 * @module
 * Runs `npm run build`, the command CI runs, and reads what it wrote: the script, esbuild's metafile and wrangler's
 * own size of the upload. The build is a dry run of `wrangler deploy` for the top-level environment, and everything
 * that shapes the bundle (minify included) comes from wrangler.toml, so what the bench and the edge-safety test look
 * at is what `wrangler deploy` uploads.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { readFile, readdir } from "node:fs/promises";
import { join, resolve } from "node:path";

export const REPO_ROOT = resolve(import.meta.dirname, "../..");

export interface Metafile {
  inputs: Record<
    string,
    { bytes: number; imports: { path: string; kind: string; external?: boolean; original?: string }[] }
  >;
  outputs: Record<string, { bytes: number; inputs: Record<string, { bytesInOutput: number }> }>;
}

export interface WorkerBundle {
  script: Buffer;
  scriptPath: string;
  metafile: Metafile;
  /** wrangler's gzipped size of the upload ("Total Upload: … / gzip: … KiB"), in bytes. */
  uploadGzipBytes: number;
}

/** The `build` script of package.json. */
export function buildScript(): string {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { scripts?: Record<string, string> };
  const script = pkg.scripts?.build;
  if (!script) throw new Error("package.json has no build script");
  return script;
}

/** Where the build script writes the bundle and the metafile (its --outdir and --metafile). */
export function buildOutputs(script: string): { outdir: string; metafile: string } {
  const option = (name: string) => {
    const value = new RegExp(`--${name}[ =](\\S+)`).exec(script)?.[1];
    if (!value) throw new Error(`the build script must pass --${name} for the bundle bench to read: ${script}`);
    return join(REPO_ROOT, value);
  };
  return { outdir: option("outdir"), metafile: option("metafile") };
}

const UPLOAD_LINE = /Total Upload: [\d.]+ KiB \/ gzip: ([\d.]+) KiB/;

export async function buildWorkerBundle(): Promise<WorkerBundle> {
  const { outdir, metafile } = buildOutputs(buildScript());
  const output = await run("npm", ["run", "build"]);
  const upload = UPLOAD_LINE.exec(output);
  if (!upload) throw new Error(`wrangler's output has no "Total Upload" line:\n${output}`);
  const scriptName = (await readdir(outdir)).find((f) => f.endsWith(".js"));
  if (!scriptName) throw new Error(`npm run build wrote no script into ${outdir}`);
  const scriptPath = join(outdir, scriptName);
  return {
    scriptPath,
    script: await readFile(scriptPath),
    metafile: JSON.parse(await readFile(metafile, "utf8")) as Metafile,
    uploadGzipBytes: Math.round(Number(upload[1]) * 1024),
  };
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, CI: "1" },
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c));
    child.stderr.on("data", (c: Buffer) => (output += c));
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolvePromise(output) : reject(new Error(`npm run build exited ${code}:\n${output}`)),
    );
  });
}
