/**
 * @module
 * The HTTP surface: `/<command>[/<namespace>]` (the namespace raw in the path, as the client puts it), POST on
 * every path (GET, PUT and DELETE too, the verbs the docs list), `Authorization: Bearer <token>`, and Upstash's
 * envelopes: `{"result": …}` on success, `{"error": "…", "status": n}` with that HTTP status otherwise.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorMessage, logger } from "../../lib/log.ts";
import { hasBearerToken, MAX_REQUEST_BYTES, readJsonBody } from "../upstash-redis/http-request.ts";
import type { CommandContext, CommandHandler } from "./context.ts";
import { VectorError } from "./errors.ts";
import { query, queryData } from "./query.ts";
import { fetchVectors, info, listNamespaces, range } from "./read.ts";
import { deleteNamespace, deleteVectors, reset, update, upsert, upsertData } from "./write.ts";

const COMMANDS: ReadonlyMap<string, CommandHandler> = new Map([
  ["upsert", upsert],
  ["upsert-data", upsertData],
  ["update", update],
  ["query", query],
  ["query-data", queryData],
  ["fetch", fetchVectors],
  ["delete", deleteVectors],
  ["range", range],
  ["reset", reset],
  ["info", info],
  ["list-namespaces", listNamespaces],
  ["delete-namespace", deleteNamespace],
]);
const METHODS: ReadonlySet<string> = new Set(["POST", "GET", "PUT", "DELETE"]);

export interface RouteOptions {
  token: string;
  /** Called once per authorised request with its command: how benchmarks count Vector requests. */
  onRequest?: (command: string) => void;
}

export async function handleRequest(
  ctx: CommandContext,
  opts: RouteOptions,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? "/", "http://vector.local");
  try {
    if (!hasBearerToken(req, opts.token)) throw new VectorError(401, "Unauthorized: Invalid auth token");
    if (!METHODS.has(req.method ?? ""))
      throw new VectorError(405, `Method ${req.method} is not allowed: the API takes POST`);
    const path = url.pathname.slice(1);
    const slash = path.indexOf("/");
    const command = slash < 0 ? path : path.slice(0, slash);
    const handler = COMMANDS.get(command);
    if (!handler)
      throw new VectorError(
        400,
        `Unknown command "${command}": the local stand-in serves ${[...COMMANDS.keys()].join(", ")}`,
      );
    const namespace = slash < 0 ? "" : decodeURIComponent(path.slice(slash + 1));
    const body = await readBody(req);
    opts.onRequest?.(command);
    send(res, 200, { result: await handler(ctx, { namespace, body, query: url.searchParams }) });
  } catch (err) {
    if (err instanceof VectorError) {
      if (err.status >= 500)
        logger.error("vector_request_failed", { path: url.pathname, status: err.status, error: err.message });
      // A 404 is a namespace nobody wrote to yet: every new tenant's first recall, which Parley reads as empty.
      else
        (err.status === 404 ? logger.info : logger.warn)("vector_request_refused", {
          path: url.pathname,
          method: req.method,
          status: err.status,
          error: err.message,
        });
      return send(res, err.status, { error: err.message, status: err.status });
    }
    logger.error("vector_request_failed", { path: url.pathname, error: errorMessage(err) });
    send(res, 500, { error: `local vector stand-in failed: ${errorMessage(err)}`, status: 500 });
  }
}

/** The JSON body; a request without one (a plain GET or DELETE) counts as `[]`, what the client sends. */
async function readBody(req: IncomingMessage): Promise<unknown> {
  const length = req.headers["content-length"];
  if ((length === undefined || length === "0") && req.headers["transfer-encoding"] === undefined) return [];
  const body = await readJsonBody(req);
  if (body.kind === "too_large") throw new VectorError(413, `Request body is larger than ${MAX_REQUEST_BYTES} bytes`);
  if (body.kind === "not_json") throw new VectorError(400, "Request body is not valid JSON");
  return body.value;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(json) });
  res.end(json);
}
