/**
 * @module
 * node:http plumbing shared by the platform API fakes: body reading, JSON answers, a server that starts on a
 * port and closes cleanly, and the HTTP control routes tests in any process use to drive a fake:
 * `GET /__calls?field=value` (a JSON array of the recorded calls, filtered on their fields), `POST /__fail`
 * `{...fieldsToMatch, status?, retryAfter?, error?, after?, times?}` (script failures), `POST /__reset`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { z } from "zod";

const MAX_BODY_BYTES = 1_000_000;
const CALLS_PATH = "/__calls";
const FAIL_PATH = "/__fail";
const RESET_PATH = "/__reset";

export class BodyTooLargeError extends Error {}

export async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req as AsyncIterable<Buffer>) {
    size += part.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError(`request body over ${MAX_BODY_BYTES} bytes`);
    parts.push(part);
  }
  return Buffer.concat(parts).toString("utf8");
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", ...headers });
  res.end(text);
}

/**
 * A scripted failure: the next `times` calls whose fields equal every entry of `match` fail. What `status` and
 * `error` mean on the wire is up to each fake (Slack `ok:false`, Discord JSON errors, Twilio error codes).
 */
export interface FailureRule {
  match: Record<string, string>;
  status?: number;
  retryAfter?: number;
  error?: string;
  /** Matching calls that still succeed before the rule starts failing (e.g. fail the 2nd chunk of a reply). */
  after: number;
  times: number;
}

const failRequestSchema = z.looseObject({
  status: z.number().int().min(100).max(599).optional(),
  retryAfter: z.number().positive().optional(),
  error: z.string().min(1).optional(),
  after: z.number().int().min(0).default(0),
  times: z.number().int().positive().default(1),
});

/** Recorded calls and scripted failures of one fake, and the HTTP routes that expose them. */
export interface FakeControl<Call extends Record<string, unknown>> {
  record(call: Call): void;
  /** The first pending failure rule matching the call, consumed once; undefined when the call should succeed. */
  takeFailure(call: Record<string, unknown>): FailureRule | undefined;
  /** Answers the control routes; false when the path is not one of them. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean>;
}

export function createFakeControl<Call extends Record<string, unknown>>(): FakeControl<Call> {
  let calls: Call[] = [];
  let failures: FailureRule[] = [];
  const matches = (fields: Record<string, unknown>, wanted: Iterable<[string, string]>) =>
    Array.from(wanted).every(([key, value]) => String(fields[key]) === value);

  return {
    record: (call) => void calls.push(call),
    takeFailure(call) {
      const rule = failures.find((f) => matches(call, Object.entries(f.match)));
      if (!rule) return undefined;
      if (rule.after > 0) {
        rule.after -= 1;
        return undefined;
      }
      rule.times -= 1;
      if (rule.times <= 0) failures = failures.filter((f) => f !== rule);
      return rule;
    },
    async handle(req, res, url) {
      if (req.method === "GET" && url.pathname === CALLS_PATH) {
        sendJson(res, 200, calls.filter((call) => matches(call, url.searchParams)));
      } else if (req.method === "POST" && url.pathname === FAIL_PATH) {
        const parsed = failRequestSchema.safeParse(JSON.parse((await readBody(req)) || "{}"));
        if (!parsed.success) {
          sendJson(res, 400, { error: z.prettifyError(parsed.error) });
          return true;
        }
        const { status, retryAfter, error, after, times, ...match } = parsed.data;
        const rule: FailureRule = {
          match: Object.fromEntries(Object.entries(match).map(([k, v]) => [k, String(v)])),
          after,
          times,
        };
        if (status !== undefined) rule.status = status;
        if (retryAfter !== undefined) rule.retryAfter = retryAfter;
        if (error !== undefined) rule.error = error;
        failures.push(rule);
        sendJson(res, 200, { ok: true });
      } else if (req.method === "POST" && url.pathname === RESET_PATH) {
        calls = [];
        failures = [];
        sendJson(res, 200, { ok: true });
      } else {
        return false;
      }
      return true;
    },
  };
}

export interface RunningHttpServer {
  /** `http://host:port`, without a trailing slash. */
  origin: string;
  close(): Promise<void>;
}

/** Serves `handle` on host:port (0 picks a free port); an exception in it becomes a 500 JSON answer rather than a hung request. */
export function startHttpServer(opts: {
  port: number;
  host?: string;
  handle: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;
}): Promise<RunningHttpServer> {
  const host = opts.host ?? "127.0.0.1";
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://${host}`);
    opts.handle(req, res, url).catch((err: unknown) => {
      if (res.headersSent) return void res.destroy();
      const status = err instanceof BodyTooLargeError ? 413 : err instanceof SyntaxError ? 400 : 500;
      sendJson(res, status, { error: err instanceof Error ? err.message : String(err) });
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, host, () => {
      server.off("error", reject);
      const address = server.address();
      const port = address && typeof address === "object" ? address.port : opts.port;
      resolve({
        origin: `http://${host}:${port}`,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((err) => (err ? fail(err) : done()));
            server.closeAllConnections();
          }),
      });
    });
  });
}
