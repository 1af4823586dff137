/**
 * @module
 * The HTTP control routes that tests in any process (workerd included) use to drive a fake, the same for every
 * fake and the local model, and the same fault routes as the fault proxy and the QStash stand-in
 * (dev/faults/control.ts):
 * - `GET /__calls?field=value`: the recorded calls (what people would see), filtered on their fields;
 * - `POST /__fail {fault, path?, bodyContains?, after?, times?, rate?, seed?, ...params}` → `{ok, rule}`: a fault
 *   rule (./faults.ts); the older shorthand without `fault`, `{...oneField, route?, status?, retryAfter?, error?,
 *   after?, times?}`, still works; `GET /__fail`: the rules still pending; `GET /__faults?field=value`: the faults
 *   injected (`{rule, fault, path, at, route, ...the call's fields}`);
 * - `POST /__reset`: forget calls, faults and whatever else the fake resets (its own state and settings);
 * plus each fake's own routes (`/__config`, `/__stats`, ...). `admit` applies the fault rules to each API call.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { FaultScript } from "../faults/rules.ts";
import {
  faultSubject,
  fakeFaultSchema,
  legacyRule,
  PLATFORM_FAULT_KINDS,
  recordFields,
  REFUSALS,
  type FakeCall,
  type FakeFault,
  type FakeFaultKind,
} from "./faults.ts";
import { readBody, type RunningHttpServer, sendJson, startHttpServer } from "./http.ts";

/** A control route: answers 200 with what it returns as JSON. */
export type ControlRoute = (body: unknown, url: URL) => unknown;
export class ControlError extends Error {}

export interface FakeControlOptions {
  /** Names the fake in error messages. */
  name: string;
  /** Fault kinds this fake can inject (default: the platform ones). */
  kinds?: readonly FakeFaultKind[];
  /** Answers a `ratelimit`, `refuse` or `error` fault the way the platform would. */
  refuse(res: ServerResponse, fault: FakeFault): void;
  /** Called by `POST /__reset` after calls and faults are forgotten. */
  onReset?: () => void;
  /** The route an older-shorthand `/__fail` rule applies to when it names none. */
  failRoute?: string;
}

/** What a fake does with a call once the fault rules had their say. */
interface Admission {
  fault: FakeFault | undefined;
  /** Answers the carried-out request, unless the fault says to hang (no answer) or drop it (close, no answer). */
  reply(write: () => void): void;
  /** `reply` with a JSON body. */
  send(status: number, body: unknown, headers?: Record<string, string>): void;
}

/** Recorded calls and scripted faults of one fake, and the HTTP routes that expose them. */
export interface FakeControl<Call extends Record<string, unknown>> {
  record(call: Call): void;
  /**
   * Applies the fault rules to a call before the fake carries it out: delays it, or answers a refusal (or drops
   * the connection) and returns undefined (the fake must then do nothing), or returns how to answer once done.
   */
  admit(call: FakeCall, res: ServerResponse): Promise<Admission | undefined>;
  /** The fault a rule picks for this call, recorded as injected; for fakes that do not answer over HTTP. */
  takeFault(call: FakeCall): FakeFault | undefined;
  /**
   * Adds the fake's own control routes, keyed `"METHOD /__path"`; a thrown ControlError answers 400 with its message.
   */
  addRoutes(routes: Record<string, ControlRoute>): void;
  /** Answers the control routes; false when the path is not one of them. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean>;
}

export function createFakeControl<Call extends Record<string, unknown>>(opts: FakeControlOptions): FakeControl<Call> {
  let calls: Call[] = [];
  const kinds = opts.kinds ?? PLATFORM_FAULT_KINDS;
  const script = new FaultScript(fakeFaultSchema);

  const addRule = (body: unknown) => {
    const isRule = typeof body === "object" && body !== null && "fault" in body;
    const legacy = isRule ? { rule: body } : legacyRule(body, opts.failRoute);
    if (legacy.problem) throw new ControlError(legacy.problem);
    const parsed = fakeFaultSchema.safeParse(legacy.rule);
    if (!parsed.success) throw new ControlError(z.prettifyError(parsed.error));
    if (!kinds.includes(parsed.data.fault))
      throw new ControlError(
        `the ${opts.name} fake cannot inject "${parsed.data.fault}" (it can: ${kinds.join(", ")})`,
      );
    return { ok: true, rule: script.add(parsed.data) };
  };
  const routes: Record<string, ControlRoute> = {
    "GET /__calls": (_body, url) => filterByQuery(calls, url.searchParams),
    "POST /__fail": addRule,
    "GET /__fail": () => script.pending(),
    "GET /__faults": (_body, url) => script.injected(url.searchParams),
    "POST /__reset": () => {
      calls = [];
      script.reset();
      opts.onReset?.();
      return { ok: true };
    },
  };
  const takeFault = (call: FakeCall) => {
    const taken = script.take(kinds, faultSubject(call));
    if (taken) Object.assign(taken.record, recordFields(call));
    return taken?.rule;
  };

  return {
    record: (call) => void calls.push(call),
    takeFault,
    addRoutes: (more) => void Object.assign(routes, more),
    async admit(call, res) {
      const fault = takeFault(call);
      if (fault?.fault === "delay") await sleep(fault.delayMs);
      if (fault && REFUSALS.has(fault.fault)) {
        opts.refuse(res, fault);
        return undefined;
      }
      if (fault?.fault === "drop_before") {
        res.socket?.destroy();
        return undefined;
      }
      const reply = (write: () => void) => {
        if (fault?.fault === "hang") return;
        if (fault?.fault === "drop_after") return void res.socket?.destroy();
        if (fault?.fault === "garbage") return sendGarbage(res, fault);
        write();
      };
      return { fault, reply, send: (status, body, headers) => reply(() => sendJson(res, status, body, headers)) };
    },
    async handle(req, res, url) {
      const route = routes[`${req.method} ${url.pathname}`];
      if (!route) return false;
      const raw = req.method === "GET" ? "" : await readBody(req);
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : {};
      } catch {
        sendJson(res, 400, { error: "the control body must be JSON" });
        return true;
      }
      try {
        sendJson(res, 200, await route(body, url));
      } catch (err) {
        if (!(err instanceof ControlError)) throw err;
        sendJson(res, 400, { error: err.message });
      }
      return true;
    },
  };
}

/** A 200 that is not the platform's answer: not JSON, or JSON of another shape. */
function sendGarbage(res: ServerResponse, fault: Extract<FakeFault, { fault: "garbage" }>): void {
  if (fault.shape === "wrong_shape") return sendJson(res, 200, fault.body ?? { ok: true });
  res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
  res.end('<html><body>upstream hiccup {"ok": tr');
}

/** The items whose fields equal every query parameter (as strings): `?channel=C1&team=T1`. */
export function filterByQuery<T extends object>(items: readonly T[], query: URLSearchParams): T[] {
  const wanted = [...query];
  return items.filter((item) =>
    wanted.every(([key, value]) => String((item as Record<string, unknown>)[key]) === value),
  );
}

/**
 * `GET /__config` (the fake's settings) and `POST /__config` (a patch checked with `schema`; answers the new settings).
 */
export function configRoutes<S extends z.ZodType>(
  read: () => unknown,
  schema: S,
  apply: (patch: z.output<S>) => unknown,
): Record<string, ControlRoute> {
  return {
    "GET /__config": () => read(),
    "POST /__config": (body) => apply(controlBody(schema, body)),
  };
}

/** Parses a control body with `schema`, or answers 400 saying what is wrong. */
export function controlBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ControlError(z.prettifyError(parsed.error));
  return parsed.data;
}

/** Serves a fake on `opts.port`: its control routes first, then its API (`api`). */
export function serveFake(
  control: Pick<FakeControl<Record<string, unknown>>, "handle">,
  opts: { port: number; host?: string },
  api: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>,
): Promise<RunningHttpServer> {
  return startHttpServer({
    port: opts.port,
    ...(opts.host ? { host: opts.host } : {}),
    async handle(req, res, url) {
      if (await control.handle(req, res, url)) return;
      await api(req, res, url);
    },
  });
}
