/**
 * @module
 * Sends planned messages at a fixed rate without waiting for earlier answers (as platforms do), and times each
 * acknowledgement from send to the end of the response. `sendInterleaved` sends every message to Parley and the
 * same message to the do-nothing Worker half a period later, so both see the same machine at the same moments and
 * background load moves both figures alike.
 */
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import type { PlannedMessage } from "./traffic.ts";

export interface Ack {
  status: number;
  ms: number;
}

export interface InterleavedAcks {
  parley: Ack[];
  noop: Ack[];
}

/** One delivery: the request (built when due), and what the platform does with the answer once timed. */
interface Delivery {
  request(): Request;
  answered?: PlannedMessage["answered"];
}

async function timed(delivery: Delivery): Promise<Ack> {
  const t0 = performance.now();
  let ack: Ack;
  let text = "";
  try {
    const res = await fetch(delivery.request());
    text = await res.text();
    ack = { status: res.status, ms: performance.now() - t0 };
  } catch {
    return { status: 0, ms: performance.now() - t0 };
  }
  await delivery.answered?.({ status: ack.status, text }, ack.ms);
  return ack;
}

/** Sends `deliveries` one every 1000/perSecond ms; resolves with every acknowledgement, in order. */
async function sendPaced(deliveries: readonly Delivery[], perSecond: number): Promise<Ack[]> {
  const started = performance.now();
  const inFlight: Promise<Ack>[] = [];
  for (let i = 0; i < deliveries.length; i++) {
    const wait = started + (i * 1000) / perSecond - performance.now();
    if (wait > 0) await sleep(wait);
    inFlight.push(timed(deliveries[i]!));
  }
  return Promise.all(inFlight);
}

const to = (baseUrl: string, m: PlannedMessage): Delivery => ({
  request: () => m.request(baseUrl),
  ...(m.answered ? { answered: m.answered } : {}),
});

export function sendAtRate(baseUrl: string, messages: readonly PlannedMessage[], perSecond: number): Promise<Ack[]> {
  return sendPaced(
    messages.map((m) => to(baseUrl, m)),
    perSecond,
  );
}

/** Parley gets `messages` at `perSecond`; the do-nothing Worker gets each one too, in between. */
export async function sendInterleaved(
  urls: { parley: string; noop: string },
  messages: readonly PlannedMessage[],
  perSecond: number,
): Promise<InterleavedAcks> {
  // Discord sends an interaction to one endpoint: only Parley's answer is the acknowledgement it takes.
  const alternating = messages.flatMap((m) => [to(urls.parley, m), { request: () => m.request(urls.noop) }]);
  const acks = await sendPaced(alternating, perSecond * 2);
  return { parley: acks.filter((_, i) => i % 2 === 0), noop: acks.filter((_, i) => i % 2 === 1) };
}
