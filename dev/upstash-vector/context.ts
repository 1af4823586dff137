/**
 * @module
 * What every command handler gets: the store, the index kind and its name, and the namespace from the path.
 */
import { VectorError } from "./errors.ts";
import type { IndexConfig } from "./index-config.ts";
import type { VectorStore } from "./store.ts";

export interface CommandContext {
  store: VectorStore;
  config: IndexConfig;
  /** The index name in error messages, as Upstash names the index there. */
  indexName: string;
}

interface CommandRequest {
  namespace: string;
  body: unknown;
  query: URLSearchParams;
}

export type CommandHandler = (ctx: CommandContext, req: CommandRequest) => Promise<unknown>;

/** Reads, deletes and updates of a namespace nobody has written to answer 404, as Upstash's endpoint pages show. */
export async function requireNamespace(ctx: CommandContext, namespace: string): Promise<void> {
  if (!(await ctx.store.exists(namespace))) {
    throw new VectorError(404, `Namespace ${namespace} for the index ${ctx.indexName} does not exist`);
  }
}
