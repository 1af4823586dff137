/**
 * @module
 * Worker tests at production timing: a suite env whose QStash is the production-schedule stand-in with a virtual
 * clock (its own lane, so parallel suites keep their own clocks) and whose Redis goes through the fault proxy (its
 * own lane, so faults stay in the suite); plus "time passes" for the suite. See test/support/README.md.
 */
import { Redis } from "@upstash/redis/cloudflare";
import { env } from "cloudflare:workers";
import { inject } from "vitest";
import { advanceClock, qstashLaneUrl, type AdvanceResult } from "./qstash-clock.ts";
import { timePasses, type TimePassed } from "./time-warp.ts";
import { suiteEnv, type TestEnv } from "./worker.ts";

const bindings = env as unknown as Record<string, string>;

/** QStash's production retries: e^2.5, e^5 and e^7.5 s after the attempt before each. */
export const QSTASH_RETRY_DELAYS_MS = [12_182, 148_413, 1_808_042] as const;
/** From the first attempt to well past the last retry. */
export const ALL_RETRIES_MS = QSTASH_RETRY_DELAYS_MS.reduce((sum, ms) => sum + ms, 0);

export interface ProdTimingSuite {
  /** For callWorker and the job pump: QSTASH_URL and UPSTASH_REDIS_REST_URL point at the suite's lanes. */
  env: TestEnv;
  /** The suite's QStash lane: its URL is also the control base (`/__clock`, `/__fail`, `/__deliveries`, ...). */
  qstashUrl: string;
  /** The control base of the suite's fault proxy lane in front of Redis (`/__fail`, `/__faults`, `/__reset`). */
  redisProxyControlUrl: string;
  /** Straight to the bridge, never through the proxy: for reading state and for the time warp. */
  redis: Redis;
  /** The suite's Redis key prefix with its separator, e.g. "t-mysuite:". */
  keyPrefix: string;
  /** Lets `ms` pass for the suite (test/support/time-warp.ts); answers what was delivered and what expired. */
  timePasses(ms: number): Promise<TimePassed>;
  /** Waits until every QStash delivery due now (e.g. the job a webhook just published) has been answered. */
  deliveriesSettled(): Promise<AdvanceResult>;
}

/** suiteEnv (own key prefix and job route) with the production-schedule QStash and Redis behind the fault proxy. */
export function prodSuiteEnv(suite: string, overrides: TestEnv = {}): TestEnv {
  return suiteEnv(suite, {
    QSTASH_URL: qstashLaneUrl(inject("qstashProdUrl"), suite),
    UPSTASH_REDIS_REST_URL: `${inject("redisFaultProxyUrl")}/lanes/${suite}`,
    ...overrides,
  });
}

export function prodTimingSuite(suite: string, overrides: TestEnv = {}): ProdTimingSuite {
  const testEnv = prodSuiteEnv(suite, overrides);
  const qstashUrl = String(testEnv.QSTASH_URL);
  const redis = new Redis({ url: bindings.UPSTASH_REDIS_REST_URL!, token: bindings.UPSTASH_REDIS_REST_TOKEN! });
  const keyPrefix = `${String(testEnv.REDIS_KEY_PREFIX)}:`;
  return {
    env: testEnv,
    qstashUrl,
    redisProxyControlUrl: `${inject("redisFaultProxyUrl")}/lanes/${suite}/__proxy`,
    redis,
    keyPrefix,
    timePasses: (ms) => timePasses({ qstashUrl, redis, keyPrefix }, ms),
    deliveriesSettled: () => advanceClock(qstashUrl, { ms: 0 }),
  };
}
