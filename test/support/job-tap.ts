/**
 * @module
 * Test-only relay between the QStash stand-in and a Worker running inside a vitest-plugin isolate, which cannot
 * listen on a port. QStash delivers to `/t/<suite>/jobs/...`; the request is held here until the suite's pump
 * (running inside workerd) takes it with `GET /__next/<suite>`, runs it through the Worker, and posts the
 * Worker's response to `/__respond/<id>`, which becomes QStash's answer.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { keepIdleConnections } from "../../dev/keep-alive.ts";

interface Delivery {
  id: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

interface Held {
  respond(status: number, headers: Record<string, string>, body: string): void;
}

/** QStash's own delivery timeout is much longer; a suite that stops pumping must not hold QStash forever. */
const HOLD_MS = 30_000;

export interface RunningJobTap {
  url: string;
  close(): Promise<void>;
}

export function startJobTap(port: number): Promise<RunningJobTap> {
  const queues = new Map<string, Delivery[]>();
  const waiters = new Map<string, ((d: Delivery) => void)[]>();
  const held = new Map<string, Held>();
  let seq = 0;

  const enqueue = (suite: string, d: Delivery) => {
    const waiter = waiters.get(suite)?.shift();
    if (waiter) waiter(d);
    else queues.set(suite, [...(queues.get(suite) ?? []), d]);
  };

  const server = keepIdleConnections(
    createServer(async (req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? "/", "http://tap");
      const body = await readBody(req);
      const parts = url.pathname.split("/").filter(Boolean);
      if (parts[0] === "t" && parts[1]) {
        const id = `d${++seq}`;
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
        const timer = setTimeout(() => {
          held.delete(id);
          res.writeHead(504).end("no pump took the delivery");
        }, HOLD_MS);
        held.set(id, {
          respond(status, h, b) {
            clearTimeout(timer);
            res.writeHead(status, h).end(b);
          },
        });
        enqueue(parts[1], { id, path: `/${parts.slice(2).join("/")}${url.search}`, headers, body });
        return;
      }
      if (parts[0] === "__next" && parts[1]) {
        const suite = parts[1];
        const ready = queues.get(suite)?.shift();
        if (ready) return void res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(ready));
        const wait = Math.min(Number(url.searchParams.get("wait") ?? 0), 10_000);
        const timer = setTimeout(() => {
          const list = waiters.get(suite) ?? [];
          waiters.set(
            suite,
            list.filter((w) => w !== give),
          );
          res.writeHead(204).end();
        }, wait);
        const give = (d: Delivery) => {
          clearTimeout(timer);
          res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(d));
        };
        waiters.set(suite, [...(waiters.get(suite) ?? []), give]);
        return;
      }
      if (parts[0] === "__respond" && parts[1]) {
        const answer = JSON.parse(body) as { status: number; headers: Record<string, string>; body: string };
        held.get(parts[1])?.respond(answer.status, answer.headers, answer.body);
        held.delete(parts[1]);
        return void res.writeHead(204).end();
      }
      res.writeHead(404).end();
    }),
  );
  return new Promise((resolve) => {
    server.listen(port, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      }),
    );
  });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
