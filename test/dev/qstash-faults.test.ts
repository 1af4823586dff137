/**
 * @module
 * Faults the QStash stand-in injects when told (POST /__fail), on the production schedule with a virtual clock:
 * refused and half-done publishes, duplicate, late and lost deliveries; the DLQ and the failure callback still
 * work under them, seeded random faults replay the same way, and everything injected can be read back.
 */
import { randomUUID } from "node:crypto";
import { Client } from "@upstash/qstash";
import { afterAll, describe, expect, inject, it } from "vitest";
import { DEV_TOKEN } from "../../dev/qstash/server.ts";
import { injectedFaults, resetFaults, scriptFault } from "../support/fault-control.ts";
import { advanceClock, qstashDeliveries, qstashLaneUrl, readClock } from "../support/qstash-clock.ts";
import { closeRecordingEndpoints, header, recordingEndpoint } from "../support/recording-endpoint.ts";

const RETRY_1_MS = 12_182;

afterAll(closeRecordingEndpoints);

async function freshLane(clientRetries = false) {
  const laneUrl = qstashLaneUrl(inject("qstashProdUrl"), `faults-${randomUUID()}`);
  const { now } = await readClock(laneUrl);
  const retry = clientRetries ? { retries: 2, backoff: () => 10 } : false;
  return { laneUrl, start: now, client: new Client({ baseUrl: laneUrl, token: DEV_TOKEN, devMode: false, retry }) };
}

/** A destination that takes 50 ms to answer and counts how many deliveries it held at once. */
async function countingConcurrency() {
  let running = 0;
  let most = 0;
  const endpoint = await recordingEndpoint(async () => {
    most = Math.max(most, ++running);
    await new Promise((resolve) => setTimeout(resolve, 50));
    running--;
    return { status: 200 };
  });
  return { ...endpoint, mostAtOnce: () => most };
}

describe("QStash publish faults", () => {
  it("a refused publish answers 5xx and stores nothing; the next publish goes through", async () => {
    const { laneUrl, client } = await freshLane();
    const destination = await recordingEndpoint();
    await scriptFault(laneUrl, { fault: "refuse_publish", path: "/jobs/reply", status: 503 });
    await expect(client.publish({ url: destination.url, body: "refused" })).rejects.toThrow(
      /refused by an injected fault/,
    );
    await client.publish({ url: destination.url, body: "accepted" });
    await advanceClock(laneUrl, { ms: 60_000 });
    expect(destination.received.map((r) => r.body)).toEqual(["accepted"]);
    expect(await injectedFaults(laneUrl)).toMatchObject([{ fault: "refuse_publish", path: "/jobs/reply" }]);
  });

  it("a publish stored but dropped fails for the client and is delivered all the same", async () => {
    const { laneUrl, client } = await freshLane();
    const destination = await recordingEndpoint();
    await scriptFault(laneUrl, { fault: "drop_after_store", bodyContains: "half-done" });
    await expect(client.publish({ url: destination.url, body: "half-done" })).rejects.toThrow();
    await advanceClock(laneUrl, { ms: 0 });
    const [record] = await injectedFaults(laneUrl, { fault: "drop_after_store" });
    expect(destination.received.map((r) => header(r, "upstash-message-id"))).toEqual([record?.messageId]);
  });

  it("a client that retries a dropped publish with its deduplication id gets the stored message back", async () => {
    const { laneUrl, client } = await freshLane(true);
    const destination = await recordingEndpoint();
    await scriptFault(laneUrl, { fault: "drop_after_store" });
    const answer = await client.publish({
      url: destination.url,
      body: "once",
      deduplicationId: `dedupe-${randomUUID()}`,
    });
    expect(answer).toMatchObject({ deduplicated: true });
    await advanceClock(laneUrl, { ms: 0 });
    expect(destination.received.map((r) => header(r, "upstash-message-id"))).toEqual([answer.messageId]);
  });
});

describe("QStash delivery faults", () => {
  it("a duplicate reaches the destination twice at once with the same message id, and settles once", async () => {
    const { laneUrl, client } = await freshLane();
    const destination = await countingConcurrency();
    await scriptFault(laneUrl, { fault: "duplicate" });
    const { messageId } = await client.publish({ url: destination.url, body: "twice" });
    const { deliveries } = await advanceClock(laneUrl, { ms: 0 });
    expect(destination.received.map((r) => [header(r, "upstash-message-id"), header(r, "upstash-retried")])).toEqual([
      [messageId, "0"],
      [messageId, "0"],
    ]);
    expect(destination.mostAtOnce()).toBe(2);
    expect(deliveries).toMatchObject([{ messageId, outcome: "done" }]);
    expect(await injectedFaults(laneUrl, { messageId })).toMatchObject([{ fault: "duplicate", copyStatus: 200 }]);
  });

  it("a sequential duplicate comes after the first delivery was answered", async () => {
    const { laneUrl, client } = await freshLane();
    const destination = await countingConcurrency();
    await scriptFault(laneUrl, { fault: "duplicate", concurrent: false });
    await client.publish({ url: destination.url, body: "again" });
    await advanceClock(laneUrl, { ms: 0 });
    expect(destination.received).toHaveLength(2);
    expect(destination.mostAtOnce()).toBe(1);
  });

  it("a late delivery goes out the given time after it was due, in virtual time", async () => {
    const { laneUrl, client, start } = await freshLane();
    const destination = await recordingEndpoint();
    await scriptFault(laneUrl, { fault: "late", delayMs: 300_000 });
    await client.publish({ url: destination.url, body: "late" });
    await advanceClock(laneUrl, { ms: 0 });
    // The attempt that was put off may be made by the publish itself or by this advance: either way it is recorded.
    expect(await qstashDeliveries(laneUrl)).toMatchObject([{ outcome: "late", nextAt: start + 300_000 }]);
    expect((await advanceClock(laneUrl, { ms: 299_999 })).deliveries).toEqual([]);
    expect((await advanceClock(laneUrl, { ms: 1 })).deliveries).toMatchObject([
      { retried: 0, status: 200, outcome: "done" },
    ]);
    expect(destination.received).toHaveLength(1);
  });

  it("a lost answer is retried on the backoff although the destination answered 200", async () => {
    const { laneUrl, client, start } = await freshLane();
    const destination = await recordingEndpoint();
    await scriptFault(laneUrl, { fault: "lose_answer", path: "/jobs/reply" });
    const { messageId } = await client.publish({ url: destination.url, body: "answered" });
    expect((await advanceClock(laneUrl, { ms: 0 })).deliveries).toMatchObject([
      { status: null, outcome: "retry", nextAt: start + RETRY_1_MS, error: expect.stringMatching(/lost/) },
    ]);
    expect(await injectedFaults(laneUrl, { fault: "lose_answer" })).toMatchObject([{ messageId, status: 200 }]);
    expect((await advanceClock(laneUrl, { ms: RETRY_1_MS })).deliveries).toMatchObject([
      { retried: 1, outcome: "done" },
    ]);
    expect(destination.received).toHaveLength(2);
  });

  it("answers lost on every attempt still end in the DLQ and the failure callback", async () => {
    const { laneUrl, client } = await freshLane();
    const destination = await recordingEndpoint();
    const failures = await recordingEndpoint(undefined, "/jobs/failed");
    await scriptFault(laneUrl, { fault: "lose_answer", path: "/jobs/reply", times: 2 });
    const { messageId } = await client.publish({
      url: destination.url,
      body: "lost",
      retries: 1,
      failureCallback: failures.url,
    });
    const { deliveries } = await advanceClock(laneUrl, { ms: 3_600_000 });
    expect(deliveries.map((d) => [d.kind, d.outcome])).toEqual([
      ["message", "retry"],
      ["message", "dlq"],
      ["callback", "done"],
    ]);
    expect(JSON.parse(failures.received[0]?.body ?? "{}")).toMatchObject({
      sourceMessageId: messageId,
      status: 0,
      retried: 1,
    });
    expect((await client.dlq.listMessages()).messages.map((m) => m.messageId)).toEqual([messageId]);
  });
});

describe("QStash fault scripts", () => {
  it("a seeded random rate injects the same faults in the same places on every run", async () => {
    const lateBodies = async () => {
      const { laneUrl, client } = await freshLane();
      const destination = await recordingEndpoint();
      await scriptFault(laneUrl, { fault: "late", delayMs: 1_000, rate: 0.3, seed: 42 });
      const flowControl = { key: "one-at-a-time", parallelism: 1 };
      const ids = new Map<string, string>();
      for (let n = 0; n < 20; n++)
        ids.set((await client.publish({ url: destination.url, body: `m${n}`, flowControl })).messageId, `m${n}`);
      await advanceClock(laneUrl, { ms: 0 });
      return (await injectedFaults(laneUrl, { fault: "late" })).map((f) => ids.get(f.messageId ?? ""));
    };
    const first = await lateBodies();
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThan(20);
    expect(await lateBodies()).toEqual(first);
  });

  it("explains a bad rule, lists pending rules, and forgets rules and records on reset", async () => {
    const { laneUrl, client } = await freshLane();
    const bad = await fetch(`${laneUrl}/__fail`, {
      method: "POST",
      body: JSON.stringify({ fault: "late", bodycontains: "x" }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/delayMs|bodycontains/);
    await scriptFault(laneUrl, { fault: "lose_answer", messageId: "msg_never", times: 3 });
    expect(await (await fetch(`${laneUrl}/__fail`)).json()).toMatchObject([{ fault: "lose_answer", remaining: 3 }]);
    const destination = await recordingEndpoint();
    await scriptFault(laneUrl, { fault: "duplicate" });
    await client.publish({ url: destination.url, body: "x" });
    await advanceClock(laneUrl, { ms: 0 });
    expect(await injectedFaults(laneUrl)).toHaveLength(1);
    await resetFaults(laneUrl);
    expect(await injectedFaults(laneUrl)).toEqual([]);
    expect(await (await fetch(`${laneUrl}/__fail`)).json()).toEqual([]);
  });
});
