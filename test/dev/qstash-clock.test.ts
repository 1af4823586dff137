/**
 * @module
 * The QStash stand-in's clocks: on the production retry schedule with a virtual clock (each test on a lane of its
 * own), nothing waits in real time, and the retries, delays, Retry-After and deduplication window fall exactly where
 * production puts them; a scaled clock runs the same schedule compressed.
 */
import { randomUUID } from "node:crypto";
import { Client } from "@upstash/qstash";
import { afterAll, describe, expect, inject, it } from "vitest";
import { freePort } from "../../dev/ports.ts";
import { DEV_TOKEN, startQStash } from "../../dev/qstash/server.ts";
import {
  advanceClock,
  qstashDeliveries,
  qstashLaneUrl,
  readClock,
  type DeliveryRecord,
} from "../support/qstash-clock.ts";
import { closeRecordingEndpoints, header, recordingEndpoint, waitFor } from "../support/recording-endpoint.ts";

/** e^(2.5·n) s for retries 1, 2, 3, in whole milliseconds. */
const RETRY_1_MS = 12_182;
const RETRY_2_MS = 148_413;
const RETRY_3_MS = 1_808_042;

afterAll(closeRecordingEndpoints);

async function freshLane(): Promise<{ laneUrl: string; client: Client; start: number }> {
  const laneUrl = qstashLaneUrl(inject("qstashProdUrl"), `clock-${randomUUID()}`);
  const { now } = await readClock(laneUrl);
  return { laneUrl, client: new Client({ baseUrl: laneUrl, token: DEV_TOKEN, devMode: false }), start: now };
}

const failing = async () => ({ status: 500, body: "boom" });

describe("QStash stand-in on the production schedule with a virtual clock", () => {
  it("retries after 12 s, 148 s and 1808 s of virtual time, then dead-letters the message and calls back", async () => {
    const { laneUrl, client, start } = await freshLane();
    const destination = await recordingEndpoint(failing);
    const failures = await recordingEndpoint(undefined, "/jobs/failed");
    const { messageId } = await client.publish({
      url: destination.url,
      body: "job",
      retries: 3,
      failureCallback: failures.url,
    });

    const first = await advanceClock(laneUrl, { ms: 0 });
    expect(first.deliveries).toMatchObject([
      { messageId, retried: 0, at: start, status: 500, outcome: "retry", nextAt: start + RETRY_1_MS },
    ]);
    expect((await advanceClock(laneUrl, { ms: RETRY_1_MS - 1 })).deliveries).toEqual([]);
    expect(destination.received).toHaveLength(1);
    const second = await advanceClock(laneUrl, { ms: 1 });
    expect(second.deliveries).toMatchObject([{ messageId, retried: 1, at: start + RETRY_1_MS, outcome: "retry" }]);

    const rest = await advanceClock(laneUrl, { to: start + RETRY_1_MS + RETRY_2_MS + RETRY_3_MS });
    expect(
      rest.deliveries.map(({ kind, retried, at, outcome }) => ({ kind, retried, at: at - start, outcome })),
    ).toEqual([
      { kind: "message", retried: 2, at: RETRY_1_MS + RETRY_2_MS, outcome: "retry" },
      { kind: "message", retried: 3, at: RETRY_1_MS + RETRY_2_MS + RETRY_3_MS, outcome: "dlq" },
      { kind: "callback", retried: 0, at: RETRY_1_MS + RETRY_2_MS + RETRY_3_MS, outcome: "done" },
    ]);
    expect(destination.received.map((r) => header(r, "upstash-retried"))).toEqual(["0", "1", "2", "3"]);
    expect(JSON.parse(failures.received[0]?.body ?? "{}")).toMatchObject({
      sourceMessageId: messageId,
      retried: 3,
      status: 500,
    });
    const { messages } = await client.dlq.listMessages();
    expect(messages.map((m) => m.messageId)).toEqual([messageId]);
    expect(rest.nextDueAt).toBeNull();
  });

  it("holds a delayed message and a not-before message until the virtual clock reaches them", async () => {
    const { laneUrl, client, start } = await freshLane();
    const destination = await recordingEndpoint();
    const notBefore = Math.ceil(start / 1000) + 3_600;
    await client.publish({ url: destination.url, body: "delayed", delay: 30 });
    await client.publish({ url: destination.url, body: "not-before", notBefore });

    expect((await advanceClock(laneUrl, { ms: 29_999 })).deliveries).toEqual([]);
    expect(destination.received).toEqual([]);
    expect((await advanceClock(laneUrl, { ms: 1 })).deliveries).toMatchObject([
      { at: start + 30_000, outcome: "done" },
    ]);
    expect((await advanceClock(laneUrl, { to: notBefore * 1000 - 1 })).deliveries).toEqual([]);
    expect((await advanceClock(laneUrl, { to: notBefore * 1000 })).deliveries).toMatchObject([
      { at: notBefore * 1000 },
    ]);
    expect(destination.received.map((r) => r.body)).toEqual(["delayed", "not-before"]);
  });

  it("waits the destination's Retry-After in virtual time instead of the backoff", async () => {
    const { laneUrl, client, start } = await freshLane();
    const destination = await recordingEndpoint(async (_req, index) =>
      index === 0 ? { status: 503, headers: { "retry-after": "600" } } : { status: 200 },
    );
    await client.publish({ url: destination.url, body: "busy" });
    expect((await advanceClock(laneUrl, { ms: 0 })).deliveries).toMatchObject([
      { outcome: "retry", nextAt: start + 600_000 },
    ]);
    expect((await advanceClock(laneUrl, { ms: 599_999 })).deliveries).toEqual([]);
    expect((await advanceClock(laneUrl, { ms: 1 })).deliveries).toMatchObject([
      { retried: 1, status: 200, outcome: "done" },
    ]);
  });

  it("keeps a deduplication id for 10 minutes of virtual time", async () => {
    const { laneUrl, client } = await freshLane();
    const destination = await recordingEndpoint();
    const deduplicationId = `dedupe-${randomUUID()}`;
    const first = await client.publish({ url: destination.url, body: "a", deduplicationId });
    await advanceClock(laneUrl, { ms: 10 * 60_000 - 1 });
    expect(await client.publish({ url: destination.url, body: "a", deduplicationId })).toEqual({
      messageId: first.messageId,
      deduplicated: true,
    });
    await advanceClock(laneUrl, { ms: 1 });
    const later = await client.publish({ url: destination.url, body: "a", deduplicationId });
    expect(later.deduplicated).toBeFalsy();
    await advanceClock(laneUrl, { ms: 0 });
    expect(destination.received).toHaveLength(2);
  });

  it("gives each lane its own clock: advancing one delivers nothing of another", async () => {
    const a = await freshLane();
    const b = await freshLane();
    const destination = await recordingEndpoint();
    await b.client.publish({ url: destination.url, body: "b", delay: 60 });
    await advanceClock(a.laneUrl, { ms: 3_600_000 });
    expect(destination.received).toEqual([]);
    expect((await readClock(b.laneUrl)).nextDueAt).toBe(b.start + 60_000);
    await advanceClock(b.laneUrl, { ms: 60_000 });
    expect(destination.received.map((r) => r.body)).toEqual(["b"]);
  });

  it("refuses to advance a wall clock, and says how to ask for an advance", async () => {
    const real = await fetch(`${inject("qstashUrl")}/__clock/advance`, {
      method: "POST",
      body: JSON.stringify({ ms: 1 }),
    });
    expect(real.status).toBe(409);
    expect(((await real.json()) as { error: string }).error).toMatch(/only a virtual clock/);
    const { laneUrl } = await freshLane();
    const bad = await fetch(`${laneUrl}/__clock/advance`, { method: "POST", body: JSON.stringify({ seconds: 5 }) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/"ms"/);
  });
});

describe("QStash stand-in with a scaled clock", () => {
  it("runs the production schedule compressed: each retry waits its backoff in the clock's time", async () => {
    const qstash = await startQStash({
      port: await freePort(),
      redisUrl: inject("redisUrl"),
      keyPrefix: `qstash-scaled-${randomUUID()}:`,
      clock: { mode: "scaled", factor: 2_000 },
      pollIntervalMs: 5,
    });
    try {
      const destination = await recordingEndpoint(failing);
      const client = new Client({ baseUrl: qstash.url, token: DEV_TOKEN, devMode: false });
      const { messageId } = await client.publish({ url: destination.url, body: "soak", retries: 2 });
      let attempts: DeliveryRecord[] = [];
      await waitFor(
        "three attempts, the last dead-lettered",
        async () => {
          attempts = await qstashDeliveries(qstash.url, { messageId });
          return attempts.at(-1)?.outcome === "dlq";
        },
        20_000,
      );
      const at = attempts.map((a) => a.at) as [number, number, number];
      expect(attempts.map((a) => a.retried)).toEqual([0, 1, 2]);
      expect(at[1] - at[0]).toBeGreaterThanOrEqual(RETRY_1_MS);
      expect(at[2] - at[1]).toBeGreaterThanOrEqual(RETRY_2_MS);
    } finally {
      await qstash.close();
    }
  });
});
