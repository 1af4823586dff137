/**
 * The fixed-window limiter against the test stack's Redis (through the REST bridge), and against a Redis that never
 * answers: a limit fails open or closed as its owner chose, after its timeout; a watched key is read in its script.
 */
import { createServer, type Server } from "node:http";
import { Redis } from "@upstash/redis/cloudflare";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { FixedWindow } from "../../lib/limits/fixed-window.ts";

const redis = new Redis({ url: inject("redisRestUrl"), token: inject("redisRestToken") });
let silent: Server;
let silentUrl: string;

beforeAll(async () => {
  silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
});
afterAll(() => {
  silent.closeAllConnections();
  silent.close();
});

describe("a fixed window", () => {
  it("lets `limit` calls through, refuses the next, and starts again in the next window", async () => {
    let now = 1_700_000_000_000;
    const window = new FixedWindow({
      redis,
      prefix: `t-fixed-window-${Date.now()}`,
      limit: 2,
      windowMs: 60_000,
      now: () => now,
    });
    const verdicts = [await window.limit("alice"), await window.limit("alice"), await window.limit("alice")];
    expect(verdicts.map((v) => [v.success, v.remaining])).toEqual([
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(await window.limit("bob")).toMatchObject({ success: true });
    now = verdicts[0]!.reset;
    expect(await window.limit("alice")).toMatchObject({ success: true, remaining: 1 });
  });

  it("reads a watched key in the same script, once it is set (a Stop mark, for no command of its own)", async () => {
    const prefix = `t-fixed-window-watch-${Date.now()}`;
    const window = new FixedWindow({ redis, prefix, limit: 5, windowMs: 60_000 });
    const watch = `${prefix}:stop`;
    expect((await window.limit("alice", undefined, watch)).watched).toBeUndefined();
    await redis.set(watch, "alice");
    expect(await window.limit("alice", undefined, watch)).toMatchObject({ success: true, watched: "alice" });
    expect((await window.limit("alice")).watched).toBeUndefined();
  });

  it("answers its owner's choice when Redis does not answer in time", async () => {
    const stuck = new Redis({ url: silentUrl, token: "t", retry: false });
    const options = { redis: stuck, prefix: "t-stuck", limit: 1, windowMs: 60_000, timeoutMs: 50 };
    expect(await new FixedWindow({ ...options, onTimeout: "allow" }).limit("x")).toMatchObject({
      success: true,
      timedOut: true,
    });
    expect(await new FixedWindow({ ...options, onTimeout: "refuse" }).limit("x")).toMatchObject({
      success: false,
      timedOut: true,
    });
  });
});
