/**
 * @module
 * One independent QStash stand-in inside the server: its own key prefix, clock, delivery loop, faults and
 * delivery record. The server's root is the default lane; `/lanes/<name>` opens another on first use
 * (dev/faults/lanes.ts), so that parallel test suites each advance their own virtual clock.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ClockAdvance } from "./clock-advance.ts";
import { createClock, VirtualClock, type ClockSetting } from "./clock.ts";
import { CONTROL_PATH_PREFIX, handleControl } from "./control-routes.ts";
import { DeliveryLog } from "./delivery-log.ts";
import { createQStashFaults } from "./faults.ts";
import { MessageDelivery } from "./message-delivery.ts";
import { handleRequest, type RouteContext } from "./routes.ts";
import { DeliveryScheduler } from "./scheduler.ts";
import { ScheduleBook } from "./schedules.ts";
import { QStashStore } from "./store.ts";

export interface LaneOptions {
  redisUrl: string;
  keyPrefix: string;
  clock: ClockSetting;
  token: string;
  signingKeys: { current: string; next: string };
  retryDelayMs: (retried: number) => number;
  pollIntervalMs: number;
}

export interface Lane {
  /** Serves one request; `rawUrl` is its URL inside the lane. */
  handle(req: IncomingMessage, res: ServerResponse, rawUrl: string): Promise<void>;
  /** Stops accepting and delivering; pending messages stay in Redis. */
  close(): Promise<void>;
}

export async function openLane(opts: LaneOptions): Promise<Lane> {
  const clock = createClock(opts.clock);
  const store = new QStashStore(opts.redisUrl, opts.keyPrefix, clock);
  try {
    await store.redis.ping();
  } catch (err) {
    await store.close();
    throw err;
  }
  const faults = createQStashFaults(() => clock.now());
  const log = new DeliveryLog();
  const schedules = new ScheduleBook(store, opts.keyPrefix, clock, () => scheduler.wake());
  const scheduler: DeliveryScheduler = new DeliveryScheduler({
    store,
    pollIntervalMs: opts.pollIntervalMs,
    delivery: new MessageDelivery({
      store,
      schedules,
      clock,
      faults,
      log,
      signingKey: opts.signingKeys.current,
      retryDelayMs: opts.retryDelayMs,
      onPublished: () => scheduler.wake(),
    }),
  });
  const routes: RouteContext = {
    store,
    schedules,
    clock,
    faults,
    token: opts.token,
    signingKeys: opts.signingKeys,
    onPublished: () => scheduler.wake(),
  };
  const advance = clock instanceof VirtualClock ? new ClockAdvance(clock, scheduler, store, log) : undefined;
  const control = { clock, advance, store, log, faults };
  scheduler.start();
  return {
    handle: (req, res, rawUrl) =>
      rawUrl.startsWith(CONTROL_PATH_PREFIX)
        ? handleControl(control, req, res, rawUrl)
        : handleRequest(routes, req, res, rawUrl),
    async close() {
      await scheduler.stop();
      await store.close();
    },
  };
}
