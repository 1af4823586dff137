/**
 * @module
 * "Time passes" for a suite: Redis TTLs under the suite's prefix and the suite's QStash lane move together, and a
 * delivery sees exactly the keys that would still exist at its time.
 */
import { randomUUID } from "node:crypto";
import { Client } from "@upstash/qstash";
import { Redis } from "@upstash/redis";
import { describe, expect, inject, it } from "vitest";
import { DEV_TOKEN } from "../../dev/qstash/server.ts";
import { qstashLaneUrl, readClock } from "../support/qstash-clock.ts";
import { recordingEndpoint } from "../support/recording-endpoint.ts";
import { timePasses, warpRedisTtls } from "../support/time-warp.ts";

const redis = new Redis({ url: inject("redisRestUrl"), token: inject("redisRestToken") });

describe("warpRedisTtls", () => {
  it("shortens the TTL of every key under the prefix and deletes those that run out, touching nothing else", async () => {
    const prefix = `warp-${randomUUID()}:`;
    const outside = `other-${randomUUID()}:k`;
    await Promise.all([
      redis.set(`${prefix}long`, "1", { ex: 100 }),
      redis.set(`${prefix}short`, "1", { ex: 30 }),
      redis.set(`${prefix}forever`, "1"),
      redis.set(outside, "1", { ex: 30 }),
    ]);
    expect(await warpRedisTtls(redis, prefix, 40_000)).toEqual([`${prefix}short`]);
    expect(await redis.exists(`${prefix}short`)).toBe(0);
    const longTtl = await redis.pttl(`${prefix}long`);
    expect(longTtl).toBeGreaterThan(55_000);
    expect(longTtl).toBeLessThanOrEqual(60_000);
    expect(await redis.pttl(`${prefix}forever`)).toBe(-1);
    expect(await redis.pttl(outside)).toBeGreaterThan(25_000);
  });
});

describe("timePasses", () => {
  it("moves the QStash clock and the suite's TTLs in step: each delivery sees the keys alive at its time", async () => {
    const keyPrefix = `warp-${randomUUID()}:`;
    const claim = `${keyPrefix}claim`;
    const qstashUrl = qstashLaneUrl(inject("qstashProdUrl"), `warp-${randomUUID()}`);
    const { now: start } = await readClock(qstashUrl);
    const sawClaim: Record<string, boolean> = {};
    const destination = await recordingEndpoint(async (req) => {
      sawClaim[req.body] = (await redis.exists(claim)) === 1;
      return { status: 200 };
    });
    await redis.set(claim, "posting", { ex: 90 });
    const client = new Client({ baseUrl: qstashUrl, token: DEV_TOKEN, devMode: false });
    await client.publish({ url: destination.url, body: "after 12 s", delay: 12 });
    await client.publish({ url: destination.url, body: "after 148 s", delay: 148 });

    const passed = await timePasses({ qstashUrl, redis, keyPrefix }, 200_000);
    expect(passed.deliveries.map((d) => d.at - start)).toEqual([12_000, 148_000]);
    expect(sawClaim).toEqual({ "after 12 s": true, "after 148 s": false });
    expect(passed.expiredKeys).toEqual([claim]);
    expect(passed.now).toBe(start + 200_000);
  });
});
