/**
 * @module
 * The HTTP control routes that tests in any process (workerd included) use to drive a fake, the same for every
 * fake and the local model:
 * - `GET /__calls?field=value`: the recorded calls (what people would see), filtered on their fields;
 * - `POST /__faults` `{route?, match?, contains?, fault, after?, times?, rate?, seed?}` (or `{rules: [...]}`):
 *   script faults (see ./faults.ts); `GET /__faults?route=` → `{pending, injected}`: what was injected where;
 * - `POST /__fail` `{...fieldsToMatch, status?, retryAfter?, error?, after?, times?}`: the older shorthand for one
 *   refusal rule (429 → `ratelimit`, an `error` → `error`, another status → `status`);
 * - `POST /__reset`: forget calls, faults and whatever else the fake resets (its own state and settings);
 * plus each fake's own routes (`/__config`, `/__stats`, ...). `admit` applies the fault rules to each API call.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { COMMON_FAULT_KINDS, FaultBook, faultRuleSchema, type FakeCall, type Fault, type FaultKind } from "./faults.ts";
import { readBody, sendJson } from "./http.ts";

const legacyFailSchema = z.looseObject({
  status: z.number().int().min(100).max(599).optional(),
  retryAfter: z.number().positive().optional(),
  error: z.string().min(1).optional(),
  after: z.number().int().min(0).default(0),
  times: z.number().int().positive().default(1),
});

/** A control route: answers 200 with what it returns as JSON. */
export type ControlRoute = (body: unknown, url: URL) => unknown;
export class ControlError extends Error {}

export interface FakeControlOptions {
  /** Names the fake in the record of injected faults. */
  name: string;
  /** Fault kinds this fake can inject (default: the common ones). */
  kinds?: readonly FaultKind[];
  /** Answers a `ratelimit`, `status` or `error` fault the way the platform would. */
  refuse(res: ServerResponse, fault: Fault): void;
  /** Called by `POST /__reset` after calls and faults are forgotten. */
  onReset?: () => void;
  /** The route a `POST /__fail` rule applies to when it names none (the route the shorthand was made for). */
  failRoute?: string;
}

/** What a fake does with a call once the fault rules had their say. */
export interface Admission {
  fault: Fault | undefined;
  /** Answers the carried-out request, unless the fault says to hang (no answer) or drop (close, no answer). */
  reply(write: () => void): void;
  /** `reply` with a JSON body. */
  send(status: number, body: unknown, headers?: Record<string, string>): void;
}

/** Recorded calls and scripted faults of one fake, and the HTTP routes that expose them. */
export interface FakeControl<Call extends Record<string, unknown>> {
  record(call: Call): void;
  /**
   * Applies the fault rules to a call before the fake carries it out: delays it, or answers a refusal and returns
   * undefined (the fake must then do nothing), or returns how to answer once the request is done.
   */
  admit(call: FakeCall, res: ServerResponse): Promise<Admission | undefined>;
  faults: FaultBook;
  /** Adds the fake's own control routes, keyed `"METHOD /__path"`; a thrown ControlError answers 400 with its message. */
  addRoutes(routes: Record<string, ControlRoute>): void;
  /** Answers the control routes; false when the path is not one of them. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean>;
}

export function createFakeControl<Call extends Record<string, unknown>>(opts: FakeControlOptions): FakeControl<Call> {
  let calls: Call[] = [];
  const faults = new FaultBook(opts.name, opts.kinds ?? COMMON_FAULT_KINDS);

  const addRule = (input: unknown) => {
    const parsed = faultRuleSchema.safeParse(input);
    if (!parsed.success) throw new ControlError(z.prettifyError(parsed.error));
    const id = faults.add(parsed.data);
    if (typeof id === "string") throw new ControlError(id);
    return id;
  };
  const routes: Record<string, ControlRoute> = {
    "GET /__calls": (_body, url) => filterByQuery(calls, url.searchParams),
    "POST /__faults": (body) => {
      const many = z.object({ rules: z.array(z.unknown()) }).safeParse(body);
      return { ok: true, ids: many.success ? many.data.rules.map(addRule) : [addRule(body)] };
    },
    "GET /__faults": (_body, url) => ({ pending: faults.pending(), injected: faults.injected(url.searchParams.get("route") ?? undefined) }),
    "POST /__fail": (body) => {
      const parsed = legacyFailSchema.safeParse(body);
      if (!parsed.success) throw new ControlError(z.prettifyError(parsed.error));
      const { status, retryAfter, error, after, times, route, ...match } = parsed.data;
      const fault =
        status === 429
          ? { kind: "ratelimit", ...(retryAfter !== undefined ? { retryAfter } : {}), ...(error ? { error } : {}) }
          : error
            ? { kind: "error", error, ...(status !== undefined ? { status } : {}) }
            : { kind: "status", status: status ?? 500 };
      const onRoute = typeof route === "string" ? route : opts.failRoute;
      return { ok: true, id: addRule({ ...(onRoute ? { route: onRoute } : {}), match, fault, after, times }) };
    },
    "POST /__reset": () => {
      calls = [];
      faults.reset();
      opts.onReset?.();
      return { ok: true };
    },
  };

  return {
    faults,
    record: (call) => void calls.push(call),
    addRoutes: (more) => void Object.assign(routes, more),
    async admit(call, res) {
      const fault = faults.take(call);
      if (fault?.kind === "delay") await sleep(fault.delayMs);
      if (fault?.kind === "ratelimit" || fault?.kind === "status" || fault?.kind === "error") {
        opts.refuse(res, fault);
        return undefined;
      }
      const reply = (write: () => void) => {
        if (fault?.kind === "hang") return;
        if (fault?.kind === "drop") return void res.socket?.destroy();
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

/** The items whose fields equal every query parameter (as strings): `?channel=C1&team=T1`. */
export function filterByQuery<T extends object>(items: readonly T[], query: URLSearchParams): T[] {
  const wanted = [...query];
  return items.filter((item) => wanted.every(([key, value]) => String((item as Record<string, unknown>)[key]) === value));
}

/** `GET /__config` (the fake's settings) and `POST /__config` (a patch checked with `schema`; answers the new settings). */
export function configRoutes<S extends z.ZodType>(read: () => unknown, schema: S, apply: (patch: z.output<S>) => unknown): Record<string, ControlRoute> {
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
