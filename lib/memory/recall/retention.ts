/**
 * @module
 * Upstash Vector has no TTL: the cron deletes passages older than RECALL_RETENTION_DAYS itself, a bounded number of
 * this bot's namespaces per run (one list request, then one delete-by-filter request per namespace), carrying on
 * from where the previous run stopped.
 */
import type { RecallIndex } from "./client.ts";
import { olderThanFilter } from "./filters.ts";
import { botNamespacePrefix } from "./namespace.ts";

export interface SweepResult {
  deleted: number;
  namespaces: number;
  /** Pass as `after` next time; undefined when this run reached the last namespace. */
  next?: string;
}

const DAY_MS = 86_400_000;

export function retentionCutoff(now: number, retentionDays: number): number {
  return now - retentionDays * DAY_MS;
}

export async function sweepExpiredPassages(
  index: RecallIndex,
  opts: { keyPrefix: string; cutoff: number; maxNamespaces: number; after?: string },
): Promise<SweepResult> {
  const mine = botNamespacePrefix(opts.keyPrefix);
  const pending = (await index.namespaces())
    .filter((ns) => ns.startsWith(mine) && (opts.after === undefined || ns > opts.after))
    .sort();
  const batch = pending.slice(0, opts.maxNamespaces);
  let deleted = 0;
  for (const namespace of batch) deleted += await index.deleteWhere(namespace, olderThanFilter(opts.cutoff));
  return { deleted, namespaces: batch.length, ...(pending.length > batch.length ? { next: batch.at(-1) } : {}) };
}
