/**
 * @module
 * Drives the virtual clock of a QStash stand-in lane (dev/qstash/control-routes.ts) from Node tests and workerd:
 * read it, advance it (answering once every delivery that came due is settled), list the delivery attempts.
 */
import type { AdvanceResult } from "../../dev/qstash/clock-advance.ts";
import type { ClockSetting } from "../../dev/qstash/clock.ts";
import type { DeliveryRecord } from "../../dev/qstash/delivery-log.ts";

export type { AdvanceResult, DeliveryRecord };
/** `waiting`: how many messages are waiting (due now or later). */
export type ClockState = ClockSetting & { now: number; nextDueAt: number | null; waiting: number };

/** The lane of `qstashUrl` named `lane`: an independent stand-in with its own clock, keys and faults. */
export function qstashLaneUrl(qstashUrl: string, lane: string): string {
  return `${qstashUrl}/lanes/${lane}`;
}

export async function readClock(laneUrl: string): Promise<ClockState> {
  return answer<ClockState>(await fetch(`${laneUrl}/__clock`), "reading the QStash clock");
}

/**
 * Moves the virtual clock by `ms` or to `to` (epoch ms), delivering in order everything that comes due on the way;
 * answers once all of it is settled. `{ ms: 0 }` just waits until what is due now is settled.
 */
export async function advanceClock(laneUrl: string, by: { ms: number } | { to: number }): Promise<AdvanceResult> {
  const res = await fetch(`${laneUrl}/__clock/advance`, { method: "POST", body: JSON.stringify(by) });
  return answer<AdvanceResult>(res, "advancing the QStash clock");
}

/** The delivery attempts so far whose fields equal every entry of `filter` (e.g. `{ messageId }`). */
export async function qstashDeliveries(
  laneUrl: string,
  filter: Record<string, string> = {},
): Promise<DeliveryRecord[]> {
  return answer<DeliveryRecord[]>(
    await fetch(`${laneUrl}/__deliveries?${new URLSearchParams(filter)}`),
    "reading the QStash deliveries",
  );
}

async function answer<T>(res: Response, what: string): Promise<T> {
  const body = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(`${what} failed (${res.status}): ${body.error}`);
  return body;
}
