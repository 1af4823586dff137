/**
 * @module
 * The local QStash stand-in: the REST API the `@upstash/qstash` Client talks to, and a delivery loop that signs
 * deliveries the `Receiver` accepts. Pending messages live in Redis, so a restart between publish and delivery loses
 * nothing. `node dev/qstash/server.ts` runs it alone (env REDIS_URL, QSTASH_PORT, QSTASH_RETRY_BASE_MS).
 */
import { createServer, type Server } from "node:http";
import { z } from "zod";
import { logger } from "../../lib/log.ts";
import { handleRequest } from "./routes.ts";
import { DeliveryScheduler, productionBackoff } from "./scheduler.ts";
import { QStashStore } from "./store.ts";
import { serveStandalone } from "../serve-standalone.ts";

/** The official QStash dev-server credentials, so that the SDK's own dev mode works against the stand-in too. */
export const DEV_TOKEN = "eyJVc2VySUQiOiJkZWZhdWx0VXNlciIsIlBhc3N3b3JkIjoiZGVmYXVsdFBhc3N3b3JkIn0=";
export const DEV_CURRENT_SIGNING_KEY = "sig_7kYjw48mhY7kAjqNGcy6cr29RJ6r";
export const DEV_NEXT_SIGNING_KEY = "sig_5ZB6DVzB1wjE8S6rZ7eenA8Pdnhs";
export const DEV_PORT = 8080;
const DEFAULT_KEY_PREFIX = "qstash-dev:";
const DEFAULT_POLL_INTERVAL_MS = 100;

export interface QStashOptions {
  port: number;
  host?: string;
  redisUrl: string;
  keyPrefix?: string /* default "qstash-dev:" */;
  token?: string;
  currentSigningKey?: string;
  nextSigningKey?: string;
  retryDelayMs?: (retried: number) => number /* default production backoff */;
  pollIntervalMs?: number;
}

export interface RunningQStash {
  url: string;
  close(): Promise<void> /* stops accepting and delivering; pending stay in Redis */;
}

export async function startQStash(opts: QStashOptions): Promise<RunningQStash> {
  const host = opts.host ?? "127.0.0.1";
  const currentSigningKey = opts.currentSigningKey ?? DEV_CURRENT_SIGNING_KEY;
  const store = new QStashStore(opts.redisUrl, opts.keyPrefix ?? DEFAULT_KEY_PREFIX);
  await store.redis.ping();
  const scheduler = new DeliveryScheduler({
    store,
    signingKey: currentSigningKey,
    retryDelayMs: opts.retryDelayMs ?? productionBackoff(),
    pollIntervalMs: opts.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
  });
  const routeContext = {
    store,
    token: opts.token ?? DEV_TOKEN,
    signingKeys: { current: currentSigningKey, next: opts.nextSigningKey ?? DEV_NEXT_SIGNING_KEY },
    onPublished: () => scheduler.wake(),
  };
  const server = createServer((req, res) => void handleRequest(routeContext, req, res));
  try {
    await listen(server, opts.port, host);
  } catch (err) {
    await store.close();
    throw err;
  }
  scheduler.start();
  const url = `http://${host}:${opts.port}`;
  logger.info("qstash_started", { url });
  return {
    url,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await scheduler.stop();
      await closed;
      await store.close();
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) =>
      reject(
        err.code === "EADDRINUSE"
          ? new Error(`port ${port} (QStash stand-in) is already in use: stop what runs there or set QSTASH_PORT`)
          : err,
      ),
    );
    server.listen(port, host, () => resolve());
  });
}

const standaloneEnvSchema = z.object({
  REDIS_URL: z.string({ error: "is not set: point it at a redis-server, e.g. redis://127.0.0.1:6390" }).url(),
  QSTASH_PORT: z.coerce.number().int().positive().default(DEV_PORT),
  QSTASH_RETRY_BASE_MS: z.coerce.number().positive().optional(),
});

if (import.meta.main) {
  serveStandalone("qstash", async () => {
    const env = standaloneEnvSchema.parse(process.env);
    return startQStash({
      port: env.QSTASH_PORT,
      redisUrl: env.REDIS_URL,
      retryDelayMs: env.QSTASH_RETRY_BASE_MS === undefined ? undefined : productionBackoff(env.QSTASH_RETRY_BASE_MS),
    });
  });
}
