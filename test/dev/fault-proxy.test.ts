/**
 * @module
 * The HTTP fault proxy in front of the Upstash Redis REST bridge, driven by the real @upstash/redis client: what a
 * client sees and what Redis holds afterwards when a request is refused, dropped before or after it ran, or delayed.
 */
import { randomUUID } from "node:crypto";
import { Redis } from "@upstash/redis";
import { describe, expect, inject, it } from "vitest";
import { evalshaMatch, injectedFaults, scriptFault } from "../support/fault-control.ts";

const direct = new Redis({ url: inject("redisRestUrl"), token: inject("redisRestToken") });
/** More than any client here tries: @upstash/redis 1.39 makes `retries + 1` attempts, and 2 with `retry: false`. */
const EVERY_ATTEMPT = 10;

function lane() {
  const base = `${inject("redisFaultProxyUrl")}/lanes/proxy-${randomUUID()}`;
  const client = (retries = 2) =>
    new Redis({ url: base, token: inject("redisRestToken"), retry: { retries, backoff: () => 10 } });
  return { control: `${base}/__proxy`, client };
}

describe("fault proxy in front of the Redis bridge", () => {
  it("forwards commands untouched when no rule fires", async () => {
    const { client } = lane();
    const key = `proxy:plain:${randomUUID()}`;
    await client().set(key, "v", { ex: 60 });
    expect(await client().get(key)).toBe("v");
    expect(await direct.ttl(key)).toBeGreaterThan(0);
  });

  it("answers dropped after the command ran: the client hears nothing, yet every attempt took effect", async () => {
    const { control, client } = lane();
    const key = `proxy:lost:${randomUUID()}`;
    await scriptFault(control, { fault: "drop_after", bodyContains: key, times: EVERY_ATTEMPT });
    await expect(client(1).incr(key)).rejects.toThrow();
    const injected = await injectedFaults(control);
    // The client auto-pipelines single commands: match on the body, which names the command and key either way.
    expect(injected).toMatchObject([{ fault: "drop_after", path: "/pipeline", status: 200 }, { fault: "drop_after" }]);
    expect(await direct.get(key)).toBe(injected.length);
  });

  it("a client that retries a lost answer runs a non-idempotent command twice", async () => {
    const { control, client } = lane();
    const key = `proxy:twice:${randomUUID()}`;
    await scriptFault(control, { fault: "drop_after", bodyContains: key });
    expect(await client(2).incr(key)).toBe(2);
  });

  it("a 5xx before forwarding reaches the client as an error and nothing runs", async () => {
    const { control, client } = lane();
    const key = `proxy:refused:${randomUUID()}`;
    await scriptFault(control, { fault: "refuse", bodyContains: key, status: 503 });
    await expect(client().incr(key)).rejects.toThrow(/injected 503/);
    expect(await direct.get(key)).toBeNull();
  });

  it("matches a script call by command name and key, and lets the first matches through with `after`", async () => {
    const { control, client } = lane();
    const key = `proxy:script:${randomUUID()}`;
    const source = "#!lua flags=allow-key-locking\nreturn redis.call('INCR', KEYS[1])";
    const script = client().createScript<number>(source);
    await scriptFault(control, { fault: "refuse", bodyContains: await evalshaMatch(source, 1, key), after: 1 });
    expect(await script.exec([key], [])).toBe(1);
    await expect(script.exec([key], [])).rejects.toThrow(/fault proxy/);
    expect(await direct.get(key)).toBe(1);
  });

  it("a connection dropped before forwarding fails the client and leaves Redis untouched", async () => {
    const { control, client } = lane();
    const key = `proxy:dropped:${randomUUID()}`;
    await scriptFault(control, { fault: "drop_before", bodyContains: `"set","${key}","a"`, times: EVERY_ATTEMPT });
    await expect(client().set(key, "a")).rejects.toThrow();
    expect(await direct.get(key)).toBeNull();
    await client().set(key, "b");
    expect(await direct.get(key)).toBe("b");
  });

  it("a delayed request still gets its answer, and the delay is on record", async () => {
    const { control, client } = lane();
    const key = `proxy:slow:${randomUUID()}`;
    await scriptFault(control, { fault: "delay", delayMs: 100, bodyContains: key });
    await client().set(key, "late");
    expect(await direct.get(key)).toBe("late");
    expect(await injectedFaults(control, { fault: "delay" })).toHaveLength(1);
  });

  it("keeps each lane's rules to itself", async () => {
    const a = lane();
    const b = lane();
    const key = `proxy:lanes:${randomUUID()}`;
    await scriptFault(a.control, { fault: "refuse", bodyContains: key });
    await b.client().set(key, "b");
    expect(await b.client().get(key)).toBe("b");
    await expect(a.client().get(key)).rejects.toThrow(/fault proxy/);
    expect(await injectedFaults(b.control)).toEqual([]);
  });
});
