/**
 * @module
 * How bench/latency hands a question's webhook to a Worker: within ASK_TIMEOUT_MS, a 200 or the bench stops.
 */

/** A webhook answers in milliseconds; one that takes this long is a failure of the stack. */
export const ASK_TIMEOUT_MS = 20_000;

/** Sends a question's signed webhook `request`; when the Worker accepted it (ms). */
export async function askWorker(request: Request, kind: string): Promise<number> {
  const res = await fetch(request, { signal: AbortSignal.timeout(ASK_TIMEOUT_MS) });
  await res.body?.cancel();
  if (res.status !== 200) throw new Error(`the Worker answered ${res.status} to a ${kind} question`);
  return Date.now();
}
