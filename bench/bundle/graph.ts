/**
 * @module
 * The Worker's import graph from its entry, read from esbuild's metafile: which modules are reached, and who
 * imports them (so a failure can say how a forbidden module got in).
 */
import type { Metafile } from "./build.ts";

export const WORKER_ENTRY = "functions/index.ts";

export interface ReachedModule {
  path: string;
  /** Import chain from the entry, entry first. */
  via: string[];
  external: boolean;
}

/** Breadth-first walk from `entry`; externals (node:*, cloudflare:*) are reached but not followed. */
export function reachableModules(meta: Metafile, entry = WORKER_ENTRY): ReachedModule[] {
  if (!meta.inputs[entry]) throw new Error(`${entry} is not in the bundle's metafile`);
  const seen = new Map<string, ReachedModule>([[entry, { path: entry, via: [entry], external: false }]]);
  const queue = [entry];
  while (queue.length > 0) {
    const from = seen.get(queue.shift()!)!;
    for (const imp of meta.inputs[from.path]?.imports ?? []) {
      // esbuild's own helpers show up as the external "<runtime>".
      if (imp.path === "<runtime>" || seen.has(imp.path)) continue;
      const external = Boolean(imp.external);
      seen.set(imp.path, { path: imp.path, via: [...from.via, imp.path], external });
      if (!external) queue.push(imp.path);
    }
  }
  return [...seen.values()];
}
