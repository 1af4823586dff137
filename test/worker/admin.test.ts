import { describe, expect, it } from "vitest";
import { callWorker, suiteEnv } from "../support/worker.ts";

const SUITE = "admin";
const TOKEN = "admin-token-for-tests-0123456789abcdef";
const env = suiteEnv(SUITE, { ADMIN_TOKEN: TOKEN });
const place = encodeURIComponent("slack|TADMIN|CADMIN|");
/** What the route allows an address before it locks it out (lib/limits/limiters.ts). */
const FAILURES_ALLOWED = 10;

function adminRequest(address: string, token: string): Request {
  return new Request(`https://bot.test/admin/conversations/${place}`, {
    headers: { Authorization: `Bearer ${token}`, "CF-Connecting-IP": address },
  });
}

describe("the admin view's door", () => {
  it("locks out an address after repeated wrong tokens with 429 and Retry-After, and only that address", async () => {
    const guesser = `198.51.100.${Date.now() % 250}`;
    for (let i = 0; i < FAILURES_ALLOWED; i++) expect((await callWorker(env, adminRequest(guesser, `wrong-${i}`))).status).toBe(401);
    const locked = await callWorker(env, adminRequest(guesser, "wrong-again"));
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(0);
    // Even the right token waits out the lockout from that address; another address gets in.
    expect((await callWorker(env, adminRequest(guesser, TOKEN))).status).toBe(429);
    const other = await callWorker(env, adminRequest(`203.0.113.${Date.now() % 250}`, TOKEN));
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ active: false });
  });

  it("refuses to start with an admin token shorter than 32 characters, naming the setting", async () => {
    const res = await callWorker(suiteEnv(SUITE, { ADMIN_TOKEN: "too-short" }), new Request("https://bot.test/health"));
    expect(res.status).toBe(500);
    const body = (await res.json()) as { settings: string[] };
    expect(body.settings).toEqual(["ADMIN_TOKEN"]);
    expect(JSON.stringify(body)).not.toContain("too-short");
  });
});
