/**
 * @module
 * An HTTP fault proxy to put between a client and a server (the Worker's Redis client and the Upstash REST bridge,
 * or anything HTTP): it forwards every request, except where a scripted or seeded-random rule says to answer 5xx
 * without forwarding (`refuse`), drop the connection before forwarding (`drop_before`), forward and then drop the
 * answer so that the request took effect but the client never hears (`drop_after`), or wait first (`delay`).
 * Controls, under `<base>/__proxy`: the routes of ./control.ts. `<base>` is the proxy's URL, or
 * `<url>/lanes/<name>` for a lane of its own (./lanes.ts). Standalone: `node dev/faults/proxy.ts`
 * (FAULT_PROXY_TARGET, FAULT_PROXY_PORT default 8078).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { errorMessage } from "../../lib/log.ts";
import { sendJson } from "../fakes/http.ts";
import { serveStandalone } from "../serve-standalone.ts";
import { handleFaultControl } from "./control.ts";
import { BodyTooLargeError, forward, readWholeBody } from "./forward.ts";
import { splitLane } from "./lanes.ts";
import { faultKind, FaultScript } from "./rules.ts";
import { keepIdleConnections } from "../keep-alive.ts";

const DEFAULT_FAULT_PROXY_PORT = 8078;
const CONTROL_PREFIX = "/__proxy";
const MAX_DELAY_MS = 10 * 60_000;
const PROXY_FAULTS = ["refuse", "drop_before", "drop_after", "delay"] as const;

const proxyFaultSchema = z.discriminatedUnion("fault", [
  faultKind("refuse", { status: z.number().int().min(500).max(599).default(500) }),
  faultKind("drop_before", {}),
  faultKind("drop_after", {}),
  faultKind("delay", { delayMs: z.number().int().positive().max(MAX_DELAY_MS) }),
]);
type ProxyFault = z.output<typeof proxyFaultSchema>;
/** A rule as `POST <control>/__fail` takes it. */
export type ProxyFaultRule = z.input<typeof proxyFaultSchema>;

export interface FaultProxyOptions {
  port: number;
  host?: string;
  /** Where requests go, e.g. the Redis bridge's URL. */
  target: string;
}

export interface RunningFaultProxy {
  url: string;
  /** The default lane's control base: POST `${controlUrl}/__fail`, GET `${controlUrl}/__faults`, ... */
  controlUrl: string;
  close(): Promise<void>;
}

export async function startFaultProxy(opts: FaultProxyOptions): Promise<RunningFaultProxy> {
  const target = new URL(opts.target);
  const host = opts.host ?? "127.0.0.1";
  const lanes = new Map<string, FaultScript<ProxyFault>>();
  const laneScript = (lane: string) => {
    const known = lanes.get(lane);
    if (known) return known;
    const script = new FaultScript(proxyFaultSchema);
    lanes.set(lane, script);
    return script;
  };
  const server = keepIdleConnections(
    createServer((req, res) => {
      handle(req, res, target, laneScript).catch((err: unknown) => {
        if (res.headersSent) return void res.destroy();
        const status = err instanceof BodyTooLargeError ? 413 : 502;
        sendJson(res, status, { error: `ERR fault proxy: ${errorMessage(err)}` });
      });
    }),
  );
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, host, () => resolve());
  });
  const url = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    url,
    controlUrl: `${url}${CONTROL_PREFIX}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  target: URL,
  laneScript: (lane: string) => FaultScript<ProxyFault>,
): Promise<void> {
  const split = splitLane(req.url ?? "/");
  if ("error" in split) return sendJson(res, 400, { error: split.error });
  const script = laneScript(split.lane);
  const { pathname, searchParams } = new URL(split.rest, "http://proxy");
  if (pathname === CONTROL_PREFIX || pathname.startsWith(`${CONTROL_PREFIX}/`)) {
    const handled = await handleFaultControl(script, req, res, pathname.slice(CONTROL_PREFIX.length), searchParams);
    if (!handled) sendJson(res, 404, { error: `${req.method} ${pathname} is not a fault proxy control route` });
    return;
  }
  const body = await readWholeBody(req);
  const injected = script.take(PROXY_FAULTS, { path: pathname, body: body.toString("utf8") });
  const fault = injected?.rule;
  if (fault?.fault === "refuse") {
    return sendJson(res, fault.status, { error: `ERR fault proxy: injected ${fault.status} (rule ${fault.id})` });
  }
  if (fault?.fault === "drop_before") return void req.socket.destroy();
  if (fault?.fault === "delay") await sleep(fault.delayMs);
  const answer = await forward(target, req.method ?? "GET", split.rest, req.headers, body);
  if (fault?.fault === "drop_after" && injected) {
    injected.record.status = answer.status;
    return void req.socket.destroy();
  }
  res.writeHead(answer.status, answer.headers).end(answer.body);
}

const standaloneEnvSchema = z.object({
  FAULT_PROXY_TARGET: z.url({
    error: "is not set: the URL to forward to, e.g. http://127.0.0.1:8079 (the Redis bridge)",
  }),
  FAULT_PROXY_PORT: z.coerce.number().int().positive().default(DEFAULT_FAULT_PROXY_PORT),
});

if (import.meta.main) {
  serveStandalone("fault_proxy", async () => {
    const env = standaloneEnvSchema.parse(process.env);
    return startFaultProxy({ port: env.FAULT_PROXY_PORT, target: env.FAULT_PROXY_TARGET });
  });
}
