/**
 * @module
 * Sends planned messages at a fixed rate without waiting for earlier answers (as platforms do), and times each
 * acknowledgement from send to the end of the response.
 */
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import type { PlannedMessage } from "./traffic.ts";

export interface Ack {
  status: number;
  ms: number;
}

export async function sendAtRate(baseUrl: string, messages: readonly PlannedMessage[], perSecond: number): Promise<Ack[]> {
  const started = performance.now();
  const inFlight: Promise<Ack>[] = [];
  for (let i = 0; i < messages.length; i++) {
    const due = started + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const request = messages[i]!.request(baseUrl);
    inFlight.push(
      (async () => {
        const t0 = performance.now();
        try {
          const res = await fetch(request);
          await res.arrayBuffer();
          return { status: res.status, ms: performance.now() - t0 };
        } catch {
          return { status: 0, ms: performance.now() - t0 };
        }
      })(),
    );
  }
  return Promise.all(inFlight);
}
