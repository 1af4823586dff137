/**
 * @module
 * What a job waits out of a refused call (lib/platforms/rate-limited.ts): only a platform's own 429, and only while
 * the waits add up to RATE_LIMIT_WAIT_IN_JOB_MAX_SECONDS. Our own call budget's "no room" goes back to QStash at once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RetryLater } from "../../lib/errors.ts";
import {
  PlatformRateLimited,
  RATE_LIMIT_WAIT_IN_JOB_MAX_SECONDS,
  waitingOutRateLimits,
} from "../../lib/platforms/rate-limited.ts";

/** A call refused with `refusals` in turn, then answering "sent"; counts how often it was made. */
function scriptedCall(refusals: Error[]) {
  const call = vi.fn(async () => {
    const refusal = refusals[call.mock.calls.length - 1];
    if (refusal) throw refusal;
    return "sent";
  });
  return call;
}

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe("waitingOutRateLimits", () => {
  it("calls again after each short 429, and answers what the call finally answers", async () => {
    const call = scriptedCall([new PlatformRateLimited("busy", 0.4), new PlatformRateLimited("busy", 1)]);
    const result = waitingOutRateLimits(call);
    await vi.advanceTimersByTimeAsync(1_400);
    expect(await result).toBe("sent");
    expect(call).toHaveBeenCalledTimes(3);
  });

  it("hands back the 429 that would take the waits past the maximum, without calling again", async () => {
    const wait = RATE_LIMIT_WAIT_IN_JOB_MAX_SECONDS / 2 + 1;
    const call = scriptedCall([
      new PlatformRateLimited("busy", wait),
      new PlatformRateLimited("busy", wait),
      new PlatformRateLimited("busy", wait),
    ]);
    const result = waitingOutRateLimits(call).catch((err: unknown) => err);
    await vi.advanceTimersByTimeAsync(RATE_LIMIT_WAIT_IN_JOB_MAX_SECONDS * 1000);
    expect(await result).toMatchObject({ name: "PlatformRateLimited", retryAfterSeconds: wait });
    expect(call).toHaveBeenCalledTimes(2);
  });

  it("never waits for our own call budget or any other RetryLater: they go back to QStash at once", async () => {
    const call = scriptedCall([new RetryLater("no room in the workspace's chat.update budget", 1)]);
    const err = await waitingOutRateLimits(call).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryLater);
    expect(err).not.toBeInstanceOf(PlatformRateLimited);
    expect(call).toHaveBeenCalledTimes(1);
  });
});
