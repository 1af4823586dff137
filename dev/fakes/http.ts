/**
 * @module
 * node:http plumbing shared by the platform API fakes and the local model: body reading, JSON answers, and a
 * server that starts on a port (0 picks a free one) and closes cleanly. Their control routes: ./control.ts.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { keepIdleConnections } from "../keep-alive.ts";

/**
 * A chat request with pictures (base64, up to IMAGE_MAX_BYTES each) and a file pasted into a fake are larger than any
 * API call.
 */
const MAX_BODY_BYTES = 32_000_000;

class BodyTooLargeError extends Error {}

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

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", ...headers });
  res.end(text);
}

export interface RunningHttpServer {
  /** `http://host:port`, without a trailing slash. */
  origin: string;
  close(): Promise<void>;
}

/**
 * Serves `handle` on host:port (0 picks a free port); an exception in it becomes a 500 JSON answer rather than a hung
 * request.
 */
export function startHttpServer(opts: {
  port: number;
  host?: string;
  handle: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;
  /** Takes websocket upgrade requests (the Gateway fake). */
  upgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
}): Promise<RunningHttpServer> {
  const host = opts.host ?? "127.0.0.1";
  const server = keepIdleConnections(
    createServer((req, res) => {
      const url = new URL(req.url ?? "/", `http://${host}`);
      opts.handle(req, res, url).catch((err: unknown) => {
        if (res.headersSent) return void res.destroy();
        const status = err instanceof BodyTooLargeError ? 413 : err instanceof SyntaxError ? 400 : 500;
        sendJson(res, status, { error: err instanceof Error ? err.message : String(err) });
      });
    }),
  );
  if (opts.upgrade) server.on("upgrade", opts.upgrade);
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
