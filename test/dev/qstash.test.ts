/**
 * @module
 * The local QStash stand-in, driven by the real `@upstash/qstash` Client and checked with the real Receiver,
 * delivering to local HTTP endpoints over a private redis-server.
 */
import { randomUUID } from "node:crypto";
import { Client, Receiver } from "@upstash/qstash";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freePort } from "../../dev/ports.ts";
import { parseRetryDelay } from "../../dev/qstash/retry-delay.ts";
import {
  DEV_CURRENT_SIGNING_KEY,
  DEV_NEXT_SIGNING_KEY,
  DEV_TOKEN,
  startQStash,
  type RunningQStash,
} from "../../dev/qstash/server.ts";
import {
  closeRecordingEndpoints,
  header,
  recordingEndpoint as endpoint,
  waitFor,
  type Received,
} from "../support/recording-endpoint.ts";

const TEST_RETRY_DELAY_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function standIn(keyPrefix: string): Promise<RunningQStash> {
  return startQStash({
    port: await freePort(),
    redisUrl: inject("redisUrl"),
    keyPrefix,
    retryDelayMs: () => TEST_RETRY_DELAY_MS,
    pollIntervalMs: 20,
  });
}

const receiver = new Receiver({ currentSigningKey: DEV_CURRENT_SIGNING_KEY, nextSigningKey: DEV_NEXT_SIGNING_KEY });
let qstash: RunningQStash;
let client: Client;

beforeAll(async () => {
  qstash = await standIn(`qstash-test-${randomUUID()}:`);
  client = new Client({ baseUrl: qstash.url, token: DEV_TOKEN, devMode: false });
});

afterAll(async () => {
  await qstash?.close();
  await closeRecordingEndpoints();
});

describe("QStash stand-in", () => {
  it("delivers a published message signed so that the Receiver accepts it, with its id and retry count", async () => {
    const destination = await endpoint();
    const url = `${destination.url}?kind=reply&n=1`;
    const { messageId } = await client.publishJSON({ url, body: { text: "héllo" } });
    await waitFor("the delivery", () => destination.received.length === 1);
    const [delivery] = destination.received;
    expect(delivery?.body).toBe(JSON.stringify({ text: "héllo" }));
    expect(header(delivery, "content-type")).toBe("application/json");
    expect(header(delivery, "upstash-message-id")).toBe(messageId);
    expect(header(delivery, "upstash-retried")).toBe("0");
    await expect(
      receiver.verify({ signature: header(delivery, "upstash-signature"), body: delivery?.body ?? "", url }),
    ).resolves.toBe(true);
    await expect(
      receiver.verify({ signature: header(delivery, "upstash-signature"), body: "tampered", url }),
    ).rejects.toThrow();
  });

  it("refuses a publish without the token and serves the signing keys", async () => {
    const unauthorized = await fetch(`${qstash.url}/v2/publish/http://127.0.0.1:9/x`, { method: "POST", body: "x" });
    expect(unauthorized.status).toBe(401);
    const keys = await fetch(`${qstash.url}/v2/keys`, { headers: { authorization: `Bearer ${DEV_TOKEN}` } });
    expect(await keys.json()).toEqual({ current: DEV_CURRENT_SIGNING_KEY, next: DEV_NEXT_SIGNING_KEY });
  });

  it("retries a destination that answers 500, then sends the failure callback and keeps the message in the DLQ", async () => {
    const destination = await endpoint(async () => ({ status: 500, body: "boom" }));
    const failures = await endpoint();
    const body = JSON.stringify({ job: "reply" });
    const { messageId } = await client.publish({
      url: destination.url,
      body,
      retries: 2,
      failureCallback: failures.url,
    });
    await waitFor("the failure callback", () => failures.received.length === 1);
    expect(destination.received.map((r) => header(r, "upstash-retried"))).toEqual(["0", "1", "2"]);
    const callback = failures.received[0] as Received;
    await expect(
      receiver.verify({ signature: header(callback, "upstash-signature"), body: callback.body, url: failures.url }),
    ).resolves.toBe(true);
    const report = JSON.parse(callback.body);
    expect(report).toMatchObject({
      status: 500,
      body: Buffer.from("boom").toString("base64"),
      retried: 2,
      maxRetries: 2,
      sourceMessageId: messageId,
      url: destination.url,
      sourceBody: Buffer.from(body).toString("base64"),
    });
    expect(report.dlqId).toEqual(expect.any(String));
    const { messages } = await client.dlq.listMessages({ dlqIds: [report.dlqId] });
    expect(messages).toMatchObject([
      { messageId, dlqId: report.dlqId, url: destination.url, responseStatus: 500, body },
    ]);
  });

  it("waits as long as Retry-After asks before the next attempt", async () => {
    const destination = await endpoint(async (_req, index) =>
      index === 0 ? { status: 503, headers: { "retry-after": "1" } } : { status: 200 },
    );
    await client.publish({ url: destination.url, body: "x" });
    await waitFor("the second attempt", () => destination.received.length === 2);
    const [first, second] = destination.received as [Received, Received];
    expect(second.at - first.at).toBeGreaterThanOrEqual(950);
  });

  it("follows the Upstash-Retry-Delay expression between attempts", async () => {
    const destination = await endpoint(async (_req, index) => ({ status: index < 2 ? 500 : 200 }));
    await client.publish({ url: destination.url, body: "x", retryDelay: "300 * pow(2, retried)" });
    await waitFor("the third attempt", () => destination.received.length === 3);
    const [a, b, c] = destination.received.map((r) => r.at) as [number, number, number];
    expect(b - a).toBeGreaterThanOrEqual(280);
    expect(c - b).toBeGreaterThanOrEqual(580);
  });

  it("stops at 489 with Upstash-NonRetryable-Error and dead-letters the message", async () => {
    const destination = await endpoint(async () => ({
      status: 489,
      headers: { "upstash-nonretryable-error": "true" },
    }));
    const { messageId } = await client.publish({ url: destination.url, body: "bad job", retries: 3 });
    let dlqId = "";
    for (const deadline = Date.now() + 5_000; !dlqId && Date.now() < deadline; await sleep(50)) {
      const { messages } = await client.dlq.listMessages();
      dlqId = messages.find((m) => m.messageId === messageId)?.dlqId ?? "";
    }
    expect(dlqId).not.toBe("");
    await sleep(3 * TEST_RETRY_DELAY_MS);
    expect(destination.received).toHaveLength(1);
    await client.dlq.delete(dlqId);
    const { messages } = await client.dlq.listMessages({ dlqIds: [dlqId] });
    expect(messages).toEqual([]);
  });

  it("holds a message back for its delay and until its not-before time", async () => {
    const destination = await endpoint();
    const published = Date.now();
    const notBefore = Math.ceil(published / 1000) + 1;
    await client.publish({ url: `${destination.url}?delayed`, body: "d", delay: 1 });
    await client.publish({ url: `${destination.url}?not-before`, body: "n", notBefore });
    await waitFor("both deliveries", () => destination.received.length === 2, 4_000);
    const delayed = destination.received.find((r) => r.body === "d") as Received;
    const scheduled = destination.received.find((r) => r.body === "n") as Received;
    expect(delayed.at - published).toBeGreaterThanOrEqual(950);
    expect(scheduled.at).toBeGreaterThanOrEqual(notBefore * 1000);
  });

  it("accepts a duplicate (same deduplication id, or same content) once and delivers it once", async () => {
    const destination = await endpoint();
    const deduplicationId = `discord-msg-${randomUUID()}`;
    const first = await client.publish({ url: destination.url, body: "a", deduplicationId });
    const again = await client.publish({ url: destination.url, body: "a", deduplicationId });
    expect(again).toEqual({ messageId: first.messageId, deduplicated: true });
    const raw = await fetch(`${qstash.url}/v2/publish/${destination.url}`, {
      method: "POST",
      headers: { authorization: `Bearer ${DEV_TOKEN}`, "upstash-deduplication-id": deduplicationId },
      body: "a",
    });
    expect(raw.status).toBe(202);
    const sameContent = { url: destination.url, body: `c-${randomUUID()}`, contentBasedDeduplication: true };
    const c1 = await client.publish(sameContent);
    const c2 = await client.publish(sameContent);
    expect(c2).toEqual({ messageId: c1.messageId, deduplicated: true });
    await waitFor("both messages", () => destination.received.length >= 2);
    await sleep(200);
    expect(destination.received.map((r) => r.body).sort()).toEqual(["a", sameContent.body].sort());
  });

  it("delivers forwarded headers without their prefix, with the requested method", async () => {
    const destination = await endpoint();
    await client.publish({ url: destination.url, body: "p", method: "PUT", headers: { "X-Tenant": "guild-1" } });
    await waitFor("the delivery", () => destination.received.length === 1);
    const delivery = destination.received[0];
    expect(delivery?.method).toBe("PUT");
    expect(header(delivery, "x-tenant")).toBe("guild-1");
    expect(delivery?.headers["upstash-forward-x-tenant"]).toBeUndefined();
  });

  it("retries a destination that does not answer within the timeout", async () => {
    const destination = await endpoint(async (_req, index) => {
      if (index === 0) await sleep(2_500);
      return { status: 200 };
    });
    await client.publish({ url: destination.url, body: "slow", timeout: 1 });
    await waitFor("the retry", () => destination.received.length === 2, 4_000);
    const [first, second] = destination.received as [Received, Received];
    expect(header(second, "upstash-retried")).toBe("1");
    expect(second.at - first.at).toBeGreaterThanOrEqual(1_000);
    expect(second.at - first.at).toBeLessThan(2_400);
  });

  it("runs deliveries of one flow-control key one at a time, in publish order", async () => {
    let running = 0;
    let mostAtOnce = 0;
    const destination = await endpoint(async () => {
      mostAtOnce = Math.max(mostAtOnce, ++running);
      await sleep(60);
      running--;
      return { status: 200 };
    });
    const flowControl = { key: `conversation-${randomUUID()}`, parallelism: 1 };
    for (let n = 0; n < 5; n++) await client.publish({ url: destination.url, body: String(n), flowControl });
    await waitFor("all five", () => destination.received.length === 5);
    expect(destination.received.map((r) => r.body)).toEqual(["0", "1", "2", "3", "4"]);
    expect(mostAtOnce).toBe(1);
  });

  it("delivers batched and enqueued messages", async () => {
    const destination = await endpoint();
    const results = await client.batchJSON([
      { url: destination.url, body: { n: 1 } },
      { url: destination.url, body: { n: 2 }, queueName: "jobs" },
    ]);
    expect(results).toHaveLength(2);
    const enqueued = await client.queue({ queueName: "jobs" }).enqueueJSON({ url: destination.url, body: { n: 3 } });
    await waitFor("three deliveries", () => destination.received.length === 3);
    const ids = destination.received.map((r) => header(r, "upstash-message-id")).sort();
    expect(ids).toEqual([...results.map((r) => r.messageId), enqueued.messageId].sort());
  });

  it("sends the callback with the destination's answer after a successful delivery", async () => {
    const destination = await endpoint(async () => ({ status: 200, body: "answered" }));
    const callbacks = await endpoint();
    const { messageId } = await client.publish({ url: destination.url, body: "q", callback: callbacks.url });
    await waitFor("the callback", () => callbacks.received.length === 1);
    expect(JSON.parse(callbacks.received[0]?.body ?? "")).toMatchObject({
      status: 200,
      body: Buffer.from("answered").toString("base64"),
      retried: 0,
      sourceMessageId: messageId,
      url: destination.url,
    });
  });

  it("delivers a message published before a restart once the next stand-in starts on the same Redis", async () => {
    const keyPrefix = `qstash-restart-${randomUUID()}:`;
    const destination = await endpoint();
    const first = await standIn(keyPrefix);
    const before = new Client({ baseUrl: first.url, token: DEV_TOKEN, devMode: false });
    const { messageId } = await before.publish({ url: destination.url, body: "survives", delay: 1 });
    await first.close();
    const second = await standIn(keyPrefix);
    try {
      await waitFor("the delivery after restart", () => destination.received.length === 1, 4_000);
      expect(header(destination.received[0], "upstash-message-id")).toBe(messageId);
      await sleep(200);
      expect(destination.received).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it("delivers each message once when two stand-ins share one Redis prefix", async () => {
    const keyPrefix = `qstash-shared-${randomUUID()}:`;
    const destination = await endpoint();
    const [a, b] = await Promise.all([standIn(keyPrefix), standIn(keyPrefix)]);
    try {
      const viaA = new Client({ baseUrl: a.url, token: DEV_TOKEN, devMode: false });
      const viaB = new Client({ baseUrl: b.url, token: DEV_TOKEN, devMode: false });
      const bodies = Array.from({ length: 20 }, (_, n) => `m${n}`);
      await Promise.all(bodies.map((body, n) => (n % 2 ? viaA : viaB).publish({ url: destination.url, body })));
      await waitFor("twenty deliveries", () => destination.received.length >= 20);
      await sleep(200);
      expect(destination.received.map((r) => r.body).sort()).toEqual([...bodies].sort());
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe("retry delay expressions", () => {
  it("evaluates arithmetic and the documented functions over `retried`", () => {
    expect(parseRetryDelay("1000 * pow(2, retried)")(3)).toBe(8000);
    expect(parseRetryDelay("max(1000, min(5000, 1000 * (1 + retried)))")(9)).toBe(5000);
    expect(parseRetryDelay("-2 + sqrt(16) * abs(-1) / 2 + floor(1.7) + ceil(0.2) + round(0.5)")(0)).toBe(3);
    expect(parseRetryDelay("exp(0) * 100 - retried")(1)).toBe(99);
  });

  it("rejects anything else instead of running it", () => {
    for (const bad of ["process.exit(1)", "1000 *", "pow(2)", "retried; 1", "(1"]) {
      expect(() => parseRetryDelay(bad)).toThrow();
    }
  });
});
