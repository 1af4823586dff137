/**
 * /slack/install needs no account and writes a pending state per request: its starts are capped per client (an
 * IPv4 address, an IPv6 /64) and from everywhere, and a refused start writes nothing.
 */
import { Redis } from "@upstash/redis/cloudflare";
import { describe, expect, it } from "vitest";
import { INSTALLABLE } from "../support/slack-install.ts";
import { callWorker, suiteEnv } from "../support/worker.ts";

const SUITE = "installcap";
const env = suiteEnv(SUITE, INSTALLABLE);
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
/** What /slack/install allows one client, and all, in ten minutes (lib/tenants/install-state.ts). */
const CLIENT_STARTS = 10;
const ALL_STARTS = 500;

async function start(address: string): Promise<Response> {
  const res = await callWorker(
    env,
    new Request("https://bot.test/slack/install", { headers: { "CF-Connecting-IP": address } }),
  );
  await res.body?.cancel();
  return res;
}

describe("starting installs", () => {
  it("caps the starts of one client (an IPv6 one by its /64) and of all clients, and writes nothing past a cap", async () => {
    for (const [address, sameNetwork] of [
      ["203.0.113.7", "203.0.113.7"],
      ["2001:db8:77:1::1", "2001:db8:77:1:ffff::2"],
    ] as const) {
      for (let i = 0; i < CLIENT_STARTS; i++) expect((await start(address)).status).toBe(302);
      const refused = await start(sameNetwork);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
      expect(Number(refused.headers.get("Retry-After"))).toBeLessThanOrEqual(600);
    }
    // A flood from many addresses stops at the cap of all; what it left is bounded by that cap, not by the flood.
    const statuses: number[] = [];
    for (let i = 0; i < ALL_STARTS; i++) statuses.push((await start(`10.${i >> 8}.${i & 0xff}.1`)).status);
    expect(statuses.filter((s) => s === 302)).toHaveLength(ALL_STARTS - 2 * CLIENT_STARTS);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2 * CLIENT_STARTS);
    expect((await redis.keys(`t-${SUITE}:*`)).length).toBeLessThanOrEqual(2 * ALL_STARTS + 1);
  });
});
