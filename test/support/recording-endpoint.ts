/**
 * @module
 * A local HTTP destination for Node tests of the stand-ins: records every request it gets (wall-clock time
 * included) and answers what the test says. Close them all with `closeRecordingEndpoints()` after the file.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { freePort } from "../../dev/ports.ts";
import { keepIdleConnections } from "../../dev/keep-alive.ts";

export interface Received {
  method: string;
  headers: IncomingMessage["headers"];
  body: string;
  at: number;
}

export interface RecordingEndpoint {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

export type Answer = (
  req: Received,
  index: number,
) => Promise<{ status: number; headers?: Record<string, string>; body?: string }>;

const ok: Answer = async () => ({ status: 200, body: "ok" });
const open = new Set<RecordingEndpoint>();

/** Listens on a free port; `url` ends with `path`, though any path is answered. */
export async function recordingEndpoint(answer: Answer = ok, path = "/jobs/reply"): Promise<RecordingEndpoint> {
  const received: Received[] = [];
  const server = keepIdleConnections(
    createServer(async (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
      const request = {
        method: req.method ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      };
      received.push(request);
      const { status, headers, body } = await answer(request, received.length - 1);
      if (!res.destroyed) res.writeHead(status, headers).end(body ?? "");
    }),
  );
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const endpoint: RecordingEndpoint = {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    close: () => {
      open.delete(endpoint);
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  open.add(endpoint);
  return endpoint;
}

export async function closeRecordingEndpoints(): Promise<void> {
  await Promise.all([...open].map((e) => e.close()));
}

/** The value of a header of a received request, lists joined. */
export function header(req: Received | undefined, name: string): string {
  const value = req?.headers[name];
  return Array.isArray(value) ? value.join(", ") : (value ?? "");
}

export async function waitFor(
  what: string,
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
