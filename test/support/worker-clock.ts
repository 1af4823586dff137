/**
 * @module
 * The Worker's clock for one suite env, under the test's control: the wall clock shifted by the time the test lets
 * pass. What the Worker reads through its runtime's `now` (fixed-window rate limits, message times it stamps,
 * answer times) moves with it; Redis TTLs, QStash and the platform fakes do not (for those: ./time-warp.ts).
 *
 * It keeps running at the wall clock's pace (a stopped clock would stop every wait the Worker measures), but only
 * ever moves forward. A test of a fixed window starts at the window's opening, so that whatever the machine's speed
 * its calls fall in one window, and lets a whole window pass to reach the next one.
 */
import { runtimeFor } from "../../lib/runtime.ts";
import type { TestEnv } from "./worker.ts";

export interface WorkerClock {
  /** The Worker's time now (ms since the epoch): stamp what a platform would stamp with it. */
  now(): number;
  /** Lets `ms` pass for the Worker. */
  passes(ms: number): void;
  /** Moves to the opening of the next fixed window of `windowMs` (windows count from the epoch, as the limiters'). */
  toNextWindow(windowMs: number): void;
}

/** Puts the Worker's runtime for `testEnv` (the one callWorker and the job pump use) on a controlled clock. */
export function workerClock(testEnv: TestEnv): WorkerClock {
  let shiftMs = 0;
  const now = () => Date.now() + shiftMs;
  // Its stores read the clock through the runtime at each call (lib/runtime.ts), so they keep this `now` too.
  runtimeFor(testEnv).now = now;
  const passes = (ms: number) => {
    if (ms < 0) throw new Error("the Worker's clock never goes back");
    shiftMs += ms;
  };
  return { now, passes, toNextWindow: (windowMs) => passes(windowMs - (now() % windowMs)) };
}
