/**
 * @module
 * A local stand-in for the Upstash Redis REST API, backed by a real redis-server, so the Worker's
 * `@upstash/redis` client runs unchanged in development and tests. Run alone with `node dev/upstash-redis/server.ts`
 * (env REDIS_URL, REDIS_REST_PORT, UPSTASH_REDIS_REST_TOKEN).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { errorMessage, logger } from "../../lib/log.ts";
import { serveStandalone } from "../serve-standalone.ts";
import { refusalReason } from "./commands.ts";
import { BASE64_ENCODING, ENCODING_HEADER } from "./encode.ts";
import { type EndpointAnswer, type Refusal, runCommand, runPipeline, runTransaction } from "./execute.ts";
import { hasBearerToken, MAX_REQUEST_BYTES, readJsonBody } from "./http-request.ts";
import { KeyLockingScripts } from "./key-locking.ts";
import { loadKeySpecs } from "./key-specs.ts";
import { RedisLink } from "./redis-link.ts";
import { keepIdleConnections } from "../keep-alive.ts";

export interface RedisBridgeOptions {
  port: number;
  host?: string;
  redisUrl: string;
  token: string;
  /** Called once per accepted REST request (its path): how benchmarks count round trips. */
  onRequest?: (path: string) => void;
  /** Refuse scripts that do not declare `allow-key-locking` (Parley's rule; see key-locking.ts). */
  requireKeyLocking?: boolean;
}

export interface RunningBridge {
  url: string;
  close(): Promise<void>;
}

type Endpoint = (redis: RedisLink, body: unknown, base64: boolean, refuse: Refusal) => Promise<EndpointAnswer>;

const ENDPOINTS: ReadonlyMap<string, Endpoint> = new Map([
  ["/", runCommand],
  ["/pipeline", runPipeline],
  ["/multi-exec", runTransaction],
]);

const DEFAULT_HOST = "127.0.0.1";
const NOSCRIPT = "NOSCRIPT";

export async function startRedisBridge(opts: RedisBridgeOptions): Promise<RunningBridge> {
  const host = opts.host ?? DEFAULT_HOST;
  const redis = await RedisLink.open(opts.redisUrl);
  const scripts = new KeyLockingScripts(await loadKeySpecs(redis), { required: opts.requireKeyLocking });
  const server = keepIdleConnections(
    createServer((req, res) => {
      handle(req, res, redis, scripts, opts).catch((err: unknown) => {
        logger.error("redis_bridge_failed", { path: req.url, error: errorMessage(err) });
        if (!res.headersSent) reply(res, 500, { error: `ERR redis bridge: ${errorMessage(err)}` });
        else res.destroy();
      });
    }),
  );
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      redis.close();
    },
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  redis: RedisLink,
  scripts: KeyLockingScripts,
  opts: RedisBridgeOptions,
): Promise<void> {
  const path = new URL(req.url ?? "/", "http://bridge").pathname.replace(/(.)\/+$/, "$1");
  const endpoint = ENDPOINTS.get(path);
  if (!endpoint) return refuse(req, res, 404, `ERR unknown endpoint ${path}`);
  if (req.method !== "POST") return refuse(req, res, 405, `ERR use POST for ${path}`);
  if (!hasBearerToken(req, opts.token)) return refuse(req, res, 401, "Unauthorized");
  const body = await readJsonBody(req);
  if (body.kind === "too_large") {
    res.setHeader("Connection", "close");
    return refuse(req, res, 413, `ERR max request size exceeded: limit is ${MAX_REQUEST_BYTES} bytes`);
  }
  if (body.kind === "not_json") return refuse(req, res, 400, "ERR failed to parse request body as JSON");
  const base64 = req.headers[ENCODING_HEADER] === BASE64_ENCODING;
  opts.onRequest?.(path);
  const refusalOf: Refusal = (command) => refusalReason(command) ?? scripts.refusal(command);
  const answer = await endpoint(redis, scripts.translate(body.value), base64, refusalOf);
  for (const failure of answer.failures) {
    // The client answers NOSCRIPT with EVAL: the protocol working as designed, not a problem.
    if (failure.error.startsWith(NOSCRIPT))
      logger.info("redis_bridge_script_not_cached", { path, command: failure.command });
    else logger.warn("redis_bridge_command_error", { path, ...failure });
  }
  reply(res, answer.status, answer.body);
}

function refuse(req: IncomingMessage, res: ServerResponse, status: number, error: string): void {
  logger.warn("redis_bridge_request_refused", { path: req.url, method: req.method, status, error });
  reply(res, status, { error });
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(json) });
  res.end(json);
}

const StandaloneEnvSchema = z.object({
  REDIS_URL: z
    .string({ error: "is not set: point it at a redis-server, e.g. redis://127.0.0.1:6390" })
    .url({ message: "must look like redis://127.0.0.1:6379" }),
  REDIS_REST_PORT: z.coerce.number().int().min(1).max(65_535).default(8079),
  UPSTASH_REDIS_REST_TOKEN: z
    .string({ error: "is not set: choose any local token" })
    .min(1, { message: "is empty: choose any local token" }),
});

if (import.meta.main) {
  serveStandalone("redis_bridge", async () => {
    const env = StandaloneEnvSchema.parse(process.env);
    return startRedisBridge({
      port: env.REDIS_REST_PORT,
      redisUrl: env.REDIS_URL,
      token: env.UPSTASH_REDIS_REST_TOKEN,
    });
  });
}
