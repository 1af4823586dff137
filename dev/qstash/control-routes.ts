/**
 * @module
 * The test control routes of one lane of the QStash stand-in (no token needed, like the platform fakes'):
 * `GET /__clock` → `{mode, factor?, now, nextDueAt, waiting}`; `POST /__clock/advance {ms} | {to}` (virtual clock only)
 * → `{now, nextDueAt, deliveries}` once every delivery that came due is settled (see ./clock-advance.ts);
 * `GET /__deliveries?field=value` → the attempts made (./delivery-log.ts); and the fault routes of
 * dev/faults/control.ts for the faults of ./faults.ts (`/__fail`, `/__faults`, `/__reset`).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { readBody, sendJson } from "../fakes/http.ts";
import { handleFaultControl, parseJsonBody } from "../faults/control.ts";
import { StuckMessageError, type ClockAdvance } from "./clock-advance.ts";
import type { QStashClock } from "./clock.ts";
import type { DeliveryLog } from "./delivery-log.ts";
import type { QStashFaults } from "./faults.ts";
import type { QStashStore } from "./store.ts";

export const CONTROL_PATH_PREFIX = "/__";

export interface ControlContext {
  clock: QStashClock;
  /** Present when the clock is virtual. */
  advance?: ClockAdvance;
  store: QStashStore;
  log: DeliveryLog;
  faults: QStashFaults;
}

const advanceSchema = z.union([z.strictObject({ ms: z.number().min(0) }), z.strictObject({ to: z.number() })]);

export async function handleControl(
  ctx: ControlContext,
  req: IncomingMessage,
  res: ServerResponse,
  rawUrl: string,
): Promise<void> {
  const { pathname, searchParams } = new URL(rawUrl, "http://qstash.local");
  if (req.method === "GET" && pathname === "/__clock") {
    return sendJson(res, 200, {
      ...ctx.clock.setting,
      now: ctx.clock.now(),
      nextDueAt: (await ctx.store.nextDueAt()) ?? null,
      waiting: await ctx.store.waiting(),
    });
  }
  if (req.method === "POST" && pathname === "/__clock/advance") return advance(ctx, req, res);
  if (req.method === "GET" && pathname === "/__deliveries") return sendJson(res, 200, ctx.log.list(searchParams));
  if (await handleFaultControl(ctx.faults, req, res, pathname, searchParams)) return;
  sendJson(res, 404, { error: `${req.method} ${pathname} is not a control route of the QStash stand-in` });
}

async function advance(ctx: ControlContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!ctx.advance) {
    return sendJson(res, 409, {
      error: `the clock is ${ctx.clock.setting.mode}: only a virtual clock can be advanced (QSTASH_CLOCK=virtual, or the clock option)`,
    });
  }
  const parsed = advanceSchema.safeParse(parseJsonBody(await readBody(req)));
  if (!parsed.success)
    return sendJson(res, 400, { error: 'send {"ms": <milliseconds to advance>} or {"to": <epoch ms>}' });
  const to = "ms" in parsed.data ? ctx.clock.now() + parsed.data.ms : parsed.data.to;
  try {
    sendJson(res, 200, await ctx.advance.advanceTo(to));
  } catch (err) {
    if (!(err instanceof StuckMessageError)) throw err;
    sendJson(res, 409, { error: err.message });
  }
}
