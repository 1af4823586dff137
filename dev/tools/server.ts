/**
 * @module
 * The local tool server (docs/tools.md): two HTTP tools as a deployer would write them, and a web search provider
 * stand-in. Every tool call must carry a valid `X-Parley-Signature` (HMAC-SHA256 of `<timestamp>.<body>` under the
 * tool's secret), a timestamp within five minutes and an `Idempotency-Key`; anything else is refused with 401/400
 * and counted as refused. Calls are counted by tool and by idempotency key (`GET /__calls`), and a key that comes
 * again with other arguments is counted apart (`keyReused`: a retry must repeat its call, never make another); the
 * last 200 calls are kept as received (`received`: key and body).
 *
 * - `POST /tools/lookup_ticket` `{arguments: {id}}`: the ticket, or "no ticket <id>".
 * - `POST /tools/create_ticket` `{arguments: {title, queue?}}`: a confirm-only tool; a repeated idempotency key gets
 *   the first call's answer and creates nothing.
 * - `GET /search?q=` with `X-Subscription-Token`: Brave Search's answer shape (`web.results[]` of title, url,
 *   description) from a small corpus.
 * - `POST /__config` `{delayMs}`: each tool call answers after this long (bench:latency); `POST /__reset`.
 *
 * Standalone: `node dev/tools/server.ts` (TOOL_SERVER_PORT, default 8097; secret TOOL_SERVER_SECRET).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { readBody, sendJson, startHttpServer } from "../fakes/http.ts";
import { serveStandalone } from "../serve-standalone.ts";
import { TICKETS, searchCorpus } from "./data.ts";

export const DEV_TOOL_SECRET = "dev-tool-secret-change-me";
export const DEV_SEARCH_KEY = "dev-search-key";
const MAX_SKEW_SECONDS = 300;
/** How many calls `received` keeps, the latest. */
const RECEIVED_KEPT = 200;

const callSchema = z.object({
  tool: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  context: z.object({
    platform: z.string(),
    tenant: z.string(),
    place: z.string(),
    thread: z.string().optional(),
    asker: z.string(),
  }),
});

export interface ToolServerCalls {
  /** Calls that passed the checks, per tool. */
  byTool: Record<string, number>;
  /** Calls that passed the checks, per idempotency key. */
  byKey: Record<string, number>;
  /** Calls refused (bad or missing signature, stale timestamp, no key). */
  refused: number;
  /** Tickets create_ticket made. */
  created: number;
  /** Calls whose idempotency key an earlier call used with other arguments. */
  keyReused: number;
  /** The title of each create_ticket call, per idempotency key (bench:chaos tells approved calls by it). */
  createTitles: Record<string, string>;
  /** The last calls received as they came, raw body and key (a test checks what an endpoint learns). */
  received: { key: string; body: string }[];
}

export interface RunningToolServer {
  url: string;
  close(): Promise<void>;
}

export async function startToolServer(opts: {
  port: number;
  secret?: string;
  searchKey?: string;
}): Promise<RunningToolServer> {
  const secret = opts.secret ?? DEV_TOOL_SECRET;
  const searchKey = opts.searchKey ?? DEV_SEARCH_KEY;
  let calls = noCalls();
  let delayMs = 0;
  const answers = new Map<string, unknown>();
  const argumentsOf = new Map<string, string>();
  const tickets = new Map(TICKETS);

  async function tool(name: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const key = header(req, "idempotency-key");
    if (!signedBy(secret, header(req, "x-parley-timestamp"), header(req, "x-parley-signature"), body) || !key) {
      calls.refused++;
      return sendJson(res, 401, { error: "missing or invalid signature, timestamp or idempotency key" });
    }
    const call = callSchema.safeParse(JSON.parse(body));
    if (!call.success || call.data.tool !== name) return sendJson(res, 400, { error: "not a Parley tool call" });
    calls.byTool[name] = (calls.byTool[name] ?? 0) + 1;
    calls.byKey[key] = (calls.byKey[key] ?? 0) + 1;
    calls.received = [...calls.received, { key, body }].slice(-RECEIVED_KEPT);
    const args = JSON.stringify(call.data.arguments);
    if ((argumentsOf.get(key) ?? args) !== args) calls.keyReused++;
    argumentsOf.set(key, argumentsOf.get(key) ?? args);
    if (name === "create_ticket") calls.createTitles[key] = String(call.data.arguments.title ?? "");
    if (delayMs) await sleep(delayMs);
    if (answers.has(key)) return sendJson(res, 200, answers.get(key));
    const answer = name === "lookup_ticket" ? lookup(call.data.arguments) : create(call.data.arguments);
    if (name === "create_ticket") answers.set(key, answer);
    sendJson(res, 200, answer);
  }

  function lookup(args: Record<string, unknown>): { result: string } {
    const id = String(args.id ?? "").replace(/^#/, "");
    const ticket = tickets.get(id);
    return { result: ticket ? `Ticket ${id} (${ticket.queue}, ${ticket.status}): ${ticket.title}` : `no ticket ${id}` };
  }

  function create(args: Record<string, unknown>): { result: string } {
    const title = String(args.title ?? "").slice(0, 200) || "(untitled)";
    const id = String(100 + tickets.size);
    tickets.set(id, { title, queue: String(args.queue ?? "IT"), status: "open" });
    calls.created++;
    return { result: `Created ticket ${id} in ${tickets.get(id)!.queue}: ${title}` };
  }

  const server = await startHttpServer({
    port: opts.port,
    async handle(req, res, url) {
      const route = `${req.method} ${url.pathname}`;
      if (route === "POST /tools/lookup_ticket") return tool("lookup_ticket", req, res);
      if (route === "POST /tools/create_ticket") return tool("create_ticket", req, res);
      if (route === "GET /search") {
        if (header(req, "x-subscription-token") !== searchKey)
          return sendJson(res, 401, { type: "ErrorResponse", error: { code: "SUBSCRIPTION_TOKEN_INVALID" } });
        return sendJson(res, 200, {
          type: "search",
          query: { original: url.searchParams.get("q") ?? "" },
          web: { type: "search", results: searchCorpus(url.searchParams.get("q") ?? "") },
        });
      }
      if (route === "GET /__calls") return sendJson(res, 200, calls);
      if (route === "POST /__config") {
        delayMs = z
          .object({ delayMs: z.number().int().min(0).max(60_000) })
          .parse(JSON.parse(await readBody(req))).delayMs;
        return sendJson(res, 200, { delayMs });
      }
      if (route === "POST /__reset") {
        calls = noCalls();
        answers.clear();
        argumentsOf.clear();
        delayMs = 0;
        return sendJson(res, 200, { ok: true });
      }
      sendJson(res, 404, { error: `no route ${route}` });
    },
  });
  return { url: server.origin, close: server.close };
}

function noCalls(): ToolServerCalls {
  return { byTool: {}, byKey: {}, refused: 0, created: 0, keyReused: 0, createTitles: {}, received: [] };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The check a deployer's endpoint makes: the HMAC of `<timestamp>.<body>`, and a timestamp within five minutes. */
function signedBy(secret: string, timestamp: string | undefined, signature: string | undefined, body: string): boolean {
  if (!timestamp || !signature || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > MAX_SKEW_SECONDS) return false;
  const expected = Buffer.from(`v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`);
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

if (import.meta.main) {
  serveStandalone("tool_server", () =>
    startToolServer({
      port: Number(process.env.TOOL_SERVER_PORT ?? 8097),
      ...(process.env.TOOL_SERVER_SECRET ? { secret: process.env.TOOL_SERVER_SECRET } : {}),
    }),
  );
}
