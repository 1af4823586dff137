/**
 * @module
 * Who takes the space in the bundle: the metafile's output bytes grouped by package (node_modules) or by
 * project folder (lib/context, lib/platforms, ...).
 */
import type { Metafile } from "./build.ts";

export interface Contributor {
  name: string;
  /** Minified bytes this group adds to the script. */
  bytes: number;
  share: number;
}

function groupName(inputPath: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(inputPath);
  if (pkg) return pkg[1]!;
  const folder = /^(lib|functions)\/([^/]+)\//.exec(inputPath);
  return folder ? `${folder[1]}/${folder[2]}` : inputPath;
}

export function contributors(meta: Metafile): Contributor[] {
  const byGroup = new Map<string, number>();
  let total = 0;
  for (const output of Object.values(meta.outputs)) {
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      byGroup.set(groupName(path), (byGroup.get(groupName(path)) ?? 0) + bytesInOutput);
      total += bytesInOutput;
    }
  }
  return [...byGroup]
    .map(([name, bytes]) => ({ name, bytes, share: total ? bytes / total : 0 }))
    .sort((a, b) => b.bytes - a.bytes);
}

/** The single input files that add the most bytes. */
export function largestInputs(meta: Metafile, count: number): { path: string; bytes: number }[] {
  return Object.values(meta.outputs)
    .flatMap((o) => Object.entries(o.inputs).map(([path, v]) => ({ path, bytes: v.bytesInOutput })))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, count);
}
