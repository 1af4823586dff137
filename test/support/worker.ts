/**
 * @module
 * Helpers for tests that run inside workerd: call the Worker with a suite-specific env (own key prefix, own job
 * route through the job tap), and pump QStash deliveries through it.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll } from "vitest";
import app from "../../functions/index.ts";

export type TestEnv = Record<string, unknown>;

const bindings = env as unknown as Record<string, string>;
export const JOB_TAP_URL = bindings.JOB_TAP_URL!;
export const SLACK_API_BASE_URL = bindings.SLACK_API_BASE_URL!;
export const MODEL_CONTROL_URL = bindings.OPENAI_BASE_URL!.replace(/\/v1$/, "");

/** Every suite gets its own key prefix and job route, so suites never see each other's keys or jobs. */
export function suiteEnv(suite: string, overrides: TestEnv = {}): TestEnv {
  return {
    ...bindings,
    PUBLIC_BASE_URL: `${JOB_TAP_URL}/t/${suite}`,
    REDIS_KEY_PREFIX: `t-${suite}`,
    ...overrides,
  };
}

export async function callWorker(testEnv: TestEnv, request: Request): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await app.fetch(request, testEnv, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

interface Delivery {
  id: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface JobPump {
  /** Status codes the Worker answered to each delivery, in completion order. */
  readonly answers: number[];
  stop(): Promise<void>;
}

/**
 * Takes QStash deliveries for the suite from the tap and runs them through the Worker until stopped. With
 * `deliverEach: 2` every delivery reaches the Worker twice at the same time, as an at-least-once queue may; QStash
 * gets the first answer.
 */
export function startJobPump(testEnv: TestEnv, suite: string, opts: { deliverEach?: number } = {}): JobPump {
  let running = true;
  const answers: number[] = [];
  const inFlight = new Set<Promise<void>>();
  const handle = async (d: Delivery) => {
    // The Worker sees its own path; the signature names PUBLIC_BASE_URL, which the Worker checks against.
    const request = () =>
      new Request(`https://worker.test${d.path}`, { method: "POST", headers: d.headers, body: d.body });
    const [response, ...copies] = await Promise.all(
      Array.from({ length: opts.deliverEach ?? 1 }, () => callWorker(testEnv, request())),
    );
    for (const copy of copies) {
      answers.push(copy.status);
      await copy.body?.cancel();
    }
    const headers: Record<string, string> = {};
    response!.headers.forEach((v, k) => {
      headers[k] = v;
    });
    answers.push(response!.status);
    await fetch(`${JOB_TAP_URL}/__respond/${d.id}`, {
      method: "POST",
      body: JSON.stringify({ status: response!.status, headers, body: await response!.text() }),
    });
  };
  const loop = (async () => {
    while (running) {
      const res = await fetch(`${JOB_TAP_URL}/__next/${suite}?wait=300`);
      if (res.status !== 200) {
        await res.body?.cancel();
        continue;
      }
      const p = handle((await res.json()) as Delivery).finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
  })();
  return {
    answers,
    async stop() {
      running = false;
      await loop;
      await Promise.all(inFlight);
    },
  };
}

/** Pumps the suite's jobs from before its first test until after its last. */
export function pumpJobsDuringSuite(
  testEnv: TestEnv,
  suite: string,
  opts: { deliverEach?: number } = {},
): Pick<JobPump, "answers"> {
  let pump: JobPump | undefined;
  beforeAll(() => {
    pump = startJobPump(testEnv, suite, opts);
  });
  afterAll(async () => {
    await pump?.stop();
  });
  return {
    get answers() {
      return pump?.answers ?? [];
    },
  };
}

/**
 * Waits until the suite's jobs are done: nothing delivered for `quietMs` (QStash's fast retries and failure
 * callbacks included), so that none is left to the stand-in after the suite has stopped pumping.
 */
export async function jobsQuiet(pump: Pick<JobPump, "answers">, quietMs = 2_000, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen = -1;
  let since = Date.now();
  while (Date.now() < deadline) {
    if (pump.answers.length !== seen) [seen, since] = [pump.answers.length, Date.now()];
    else if (Date.now() - since >= quietMs) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 15_000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits `ms` so that something that should NOT happen has had its chance to. */
export function settle(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
