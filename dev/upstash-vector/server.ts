/**
 * @module
 * A local stand-in for Upstash Vector: the REST API `@upstash/vector` talks to, backed by redis-server (so the
 * vectors survive a restart), with local models for text: BM25 sparse vectors as Upstash computes them and a small
 * hashed n-gram dense embedder (LOCAL_HASHED_NGRAM, not a language model). The index kind is chosen at start.
 * Run alone with `node dev/upstash-vector/server.ts` (env REDIS_URL, VECTOR_PORT, UPSTASH_VECTOR_REST_TOKEN,
 * VECTOR_INDEX_TYPE, VECTOR_DIMENSION, VECTOR_SIMILARITY, VECTOR_KEY_PREFIX).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import * as z from "zod";
import { logger } from "../../lib/log.ts";
import { serveStandalone } from "../serve-standalone.ts";
import { DEFAULT_LOCAL_DIMENSION } from "./dense-embedder.ts";
import { INDEX_TYPES, SIMILARITY_FUNCTIONS, type IndexConfig } from "./index-config.ts";
import { handleRequest } from "./routes.ts";
import { VectorStore } from "./store.ts";
import { keepIdleConnections } from "../keep-alive.ts";

const DEV_VECTOR_PORT = 8095;
export const DEV_VECTOR_TOKEN = "local-vector-token";
const DEFAULT_KEY_PREFIX = "upstash-vector:";

export interface VectorStandInOptions {
  port: number;
  host?: string;
  redisUrl: string;
  token?: string /* default DEV_VECTOR_TOKEN */;
  keyPrefix?: string /* default "upstash-vector:"; one index per prefix */;
  indexType?: IndexConfig["type"] /* default HYBRID */;
  dimension?: number /* default 384 */;
  similarity?: IndexConfig["similarity"] /* default COSINE */;
  /** Called once per authorised request with its command: how benchmarks count Vector requests. */
  onRequest?: (command: string) => void;
}

export interface RunningVectorStandIn {
  url: string;
  token: string;
  close(): Promise<void>;
}

export async function startVectorStandIn(opts: VectorStandInOptions): Promise<RunningVectorStandIn> {
  const host = opts.host ?? "127.0.0.1";
  const token = opts.token ?? DEV_VECTOR_TOKEN;
  const config: IndexConfig = {
    type: opts.indexType ?? "HYBRID",
    dimension: opts.dimension ?? DEFAULT_LOCAL_DIMENSION,
    similarity: opts.similarity ?? "COSINE",
  };
  const store = new VectorStore(opts.redisUrl, opts.keyPrefix ?? DEFAULT_KEY_PREFIX);
  try {
    await store.open(config);
  } catch (err) {
    await store.close().catch(() => {});
    throw err;
  }
  const ctx = { store, config, indexName: "parley-local" };
  const server = keepIdleConnections(
    createServer((req, res) => void handleRequest(ctx, { token, onRequest: opts.onRequest }, req, res)),
  );
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", (err: NodeJS.ErrnoException) =>
        reject(
          err.code === "EADDRINUSE"
            ? new Error(
                `port ${opts.port} (Upstash Vector stand-in) is already in use: stop what runs there or set VECTOR_PORT`,
              )
            : err,
        ),
      );
      server.listen(opts.port, host, () => resolve());
    });
  } catch (err) {
    await store.close();
    throw err;
  }
  const { port } = server.address() as AddressInfo;
  const url = `http://${host}:${port}`;
  logger.info("vector_started", { url, indexType: config.type, dimension: config.dimension });
  return {
    url,
    token,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await store.close();
    },
  };
}

const standaloneEnvSchema = z.object({
  REDIS_URL: z
    .string({ error: "is not set: point it at a redis-server, e.g. redis://127.0.0.1:6390" })
    .url({ message: "must look like redis://127.0.0.1:6379" }),
  VECTOR_PORT: z.coerce.number().int().min(1).max(65_535).default(DEV_VECTOR_PORT),
  UPSTASH_VECTOR_REST_TOKEN: z
    .string()
    .min(1, { message: "is empty: choose any local token" })
    .default(DEV_VECTOR_TOKEN),
  VECTOR_INDEX_TYPE: z.enum(INDEX_TYPES).default("HYBRID"),
  VECTOR_DIMENSION: z.coerce.number().int().min(1).max(5_376).default(DEFAULT_LOCAL_DIMENSION),
  VECTOR_SIMILARITY: z.enum(SIMILARITY_FUNCTIONS).default("COSINE"),
  VECTOR_KEY_PREFIX: z.string().min(1).default(DEFAULT_KEY_PREFIX),
});

if (import.meta.main) {
  serveStandalone("vector", async () => {
    const env = standaloneEnvSchema.parse(process.env);
    return startVectorStandIn({
      port: env.VECTOR_PORT,
      redisUrl: env.REDIS_URL,
      token: env.UPSTASH_VECTOR_REST_TOKEN,
      keyPrefix: env.VECTOR_KEY_PREFIX,
      indexType: env.VECTOR_INDEX_TYPE,
      dimension: env.VECTOR_DIMENSION,
      similarity: env.VECTOR_SIMILARITY,
    });
  });
}
