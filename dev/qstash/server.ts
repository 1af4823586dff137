/**
 * @module
 * The local QStash stand-in: the REST API the `@upstash/qstash` Client talks to, and a delivery loop that signs
 * deliveries the `Receiver` accepts. Pending messages live in Redis, so a restart between publish and delivery loses
 * nothing. The root URL is one stand-in; `<url>/lanes/<name>` is another, independent one (own keys, clock and
 * faults: ./lane.ts). Test controls (clock, faults, delivery record): ./control-routes.ts.
 * `node dev/qstash/server.ts` runs it alone (env REDIS_URL, QSTASH_PORT, QSTASH_RETRY_BASE_MS, QSTASH_CLOCK).
 */
import { createServer, type Server } from "node:http";
import { z } from "zod";
import { errorMessage, logger } from "../../lib/log.ts";
import { sendJson } from "../fakes/http.ts";
import { splitLane } from "../faults/lanes.ts";
import { clockSettingFromEnv, type ClockSetting } from "./clock.ts";
import { openLane, type Lane, type LaneOptions } from "./lane.ts";
import { productionBackoff } from "./scheduler.ts";
import { serveStandalone } from "../serve-standalone.ts";
import { keepIdleConnections } from "../keep-alive.ts";

/** The official QStash dev-server credentials, so that the SDK's own dev mode works against the stand-in too. */
export const DEV_TOKEN = "eyJVc2VySUQiOiJkZWZhdWx0VXNlciIsIlBhc3N3b3JkIjoiZGVmYXVsdFBhc3N3b3JkIn0=";
export const DEV_CURRENT_SIGNING_KEY = "sig_7kYjw48mhY7kAjqNGcy6cr29RJ6r";
export const DEV_NEXT_SIGNING_KEY = "sig_5ZB6DVzB1wjE8S6rZ7eenA8Pdnhs";
const DEV_PORT = 8080;
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
  /** What every lane's clock is (./clock.ts); default from env QSTASH_CLOCK, else the wall clock. */
  clock?: ClockSetting;
}

export interface RunningQStash {
  url: string;
  close(): Promise<void> /* stops accepting and delivering; pending stay in Redis */;
}

export async function startQStash(opts: QStashOptions): Promise<RunningQStash> {
  const host = opts.host ?? "127.0.0.1";
  const keyPrefix = opts.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const laneOptions: Omit<LaneOptions, "keyPrefix"> = {
    redisUrl: opts.redisUrl,
    clock: opts.clock ?? clockSettingFromEnv(process.env),
    token: opts.token ?? DEV_TOKEN,
    signingKeys: {
      current: opts.currentSigningKey ?? DEV_CURRENT_SIGNING_KEY,
      next: opts.nextSigningKey ?? DEV_NEXT_SIGNING_KEY,
    },
    retryDelayMs: opts.retryDelayMs ?? productionBackoff(),
    pollIntervalMs: opts.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
  };
  const lanes = new Map<string, Promise<Lane>>([["", openLane({ ...laneOptions, keyPrefix })]]);
  const laneNamed = (name: string): Promise<Lane> => {
    let lane = lanes.get(name);
    if (!lane) {
      lane = openLane({ ...laneOptions, keyPrefix: `${keyPrefix}lane:${name}:` });
      lanes.set(name, lane);
      lane.catch(() => lanes.delete(name));
    }
    return lane;
  };
  const closeLanes = async () =>
    void (await Promise.allSettled([...lanes.values()].map(async (l) => (await l).close())));
  const server = keepIdleConnections(
    createServer((req, res) => {
      const split = splitLane(req.url ?? "/");
      if ("error" in split) return sendJson(res, 400, split);
      laneNamed(split.lane)
        .then((lane) => lane.handle(req, res, split.rest))
        .catch((err: unknown) => {
          logger.error("qstash_request_failed", { error: errorMessage(err) });
          if (!res.headersSent) sendJson(res, 500, { error: errorMessage(err) });
        });
    }),
  );
  try {
    await lanes.get("");
    await listen(server, opts.port, host);
  } catch (err) {
    await closeLanes();
    throw err;
  }
  const url = `http://${host}:${opts.port}`;
  logger.info("qstash_started", { url, clock: laneOptions.clock.mode });
  return {
    url,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closeLanes();
      await closed;
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
      clock: clockSettingFromEnv(process.env),
    });
  });
}
