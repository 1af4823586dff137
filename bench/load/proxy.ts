/**
 * @module
 * A loopback HTTP proxy that sees every request on its way to `target`: bench/load puts one in front of QStash
 * (to count publishes per trigger) and one between QStash and the Worker (a gate that holds job deliveries while
 * inbound traffic is measured, so the Redis figures are the webhooks' alone, and that tells when the jobs are done).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { keepIdleConnections } from "../../dev/keep-alive.ts";

interface ProxyActivity {
  /** Requests received and not answered yet (held ones included). */
  pending: number;
  /** performance.now() of the latest request. */
  lastRequestAt: number;
  /** 2xx answers per path. */
  succeeded: ReadonlyMap<string, number>;
}

export interface RunningProxy {
  url: string;
  /** Lets held requests through, and every later one at once. */
  open(): void;
  /** Holds later requests until the next open(). */
  hold(): void;
  activity(): ProxyActivity;
  close(): Promise<void>;
}

export interface ProxyOptions {
  target: string;
  /** Start closed: requests wait until open(). */
  gated?: boolean;
  onRequest?: (method: string, path: string, body: Buffer) => void;
}

const HOP_HEADERS = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive"]);

export async function startProxy(opts: ProxyOptions): Promise<RunningProxy> {
  let isOpen = !opts.gated;
  const held: (() => void)[] = [];
  let pending = 0;
  let lastRequestAt = 0;
  const succeeded = new Map<string, number>();
  const forward = async (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && !HOP_HEADERS.has(k)) headers[k] = v;
    try {
      const answer = await fetch(`${opts.target}${req.url}`, {
        method: req.method,
        headers,
        body: body.length ? body : undefined,
      });
      const out: Record<string, string> = {};
      answer.headers.forEach((v, k) => {
        if (!HOP_HEADERS.has(k) && k !== "content-encoding") out[k] = v;
      });
      res.writeHead(answer.status, out).end(Buffer.from(await answer.arrayBuffer()));
      if (answer.ok) {
        const path = new URL(req.url ?? "/", "http://proxy").pathname;
        succeeded.set(path, (succeeded.get(path) ?? 0) + 1);
      }
    } catch {
      res.writeHead(502).end();
    } finally {
      pending--;
    }
  };
  const server = keepIdleConnections(
    createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks);
        pending++;
        lastRequestAt = performance.now();
        opts.onRequest?.(req.method ?? "GET", req.url ?? "/", body);
        if (isOpen) void forward(req, res, body);
        else held.push(() => void forward(req, res, body));
      });
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    open() {
      isOpen = true;
      for (const release of held.splice(0)) release();
    },
    hold() {
      isOpen = false;
    },
    activity: () => ({ pending, lastRequestAt, succeeded }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
