import { describe, expect, it } from "vitest";
import { prodTimingSuite } from "../support/prod-timing.ts";
import { BOT_USER_ID, signedSlackRequest, slackMessageEvent, slackPosts } from "../support/slack.ts";
import { callWorker, eventually, pumpJobsDuringSuite, suiteEnv, type TestEnv } from "../support/worker.ts";

const SUITE = "admin";
const SHORT_SUITE = "adminshort";
const TOKEN = "admin-token-for-tests-0123456789abcdef";
const env = suiteEnv(SUITE, { ADMIN_TOKEN: TOKEN });
const place = encodeURIComponent("slack|TADMIN|CADMIN|");
/** What the route allows a client before it locks it out, and all clients together (lib/limits/admin-attempts.ts). */
const FAILURES_ALLOWED = 10;
const ALL_FAILURES_ALLOWED = 100;
const WINDOW_MS = 5 * 60_000;

pumpJobsDuringSuite(suiteEnv(SHORT_SUITE, { ADMIN_TOKEN: "too-short" }), SHORT_SUITE);

function adminRequest(address: string, token: string): Request {
  return new Request(`https://bot.test/admin/conversations/${place}`, {
    headers: { Authorization: `Bearer ${token}`, "CF-Connecting-IP": address },
  });
}

async function statusOf(testEnv: TestEnv, address: string, token: string): Promise<number> {
  const res = await callWorker(testEnv, adminRequest(address, token));
  await res.body?.cancel();
  return res.status;
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;
let n = 0;
/** An IPv6 /64 of its own for each call: `2001:db8:<n>:<time>::/64`. */
const newNetwork = () => `2001:db8:${(++n).toString(16)}:${(Date.now() % 0xffff).toString(16)}`;

describe("the admin view's door", () => {
  it("locks out an address after repeated wrong tokens with 429 and Retry-After, and only that address", async () => {
    const guesser = `198.51.100.${Date.now() % 250}`;
    for (let i = 0; i < FAILURES_ALLOWED; i++)
      expect((await callWorker(env, adminRequest(guesser, `wrong-${i}`))).status).toBe(401);
    const locked = await callWorker(env, adminRequest(guesser, "wrong-again"));
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(0);
    // Even the right token waits out the lockout from that address; another address gets in.
    expect((await callWorker(env, adminRequest(guesser, TOKEN))).status).toBe(429);
    const other = await callWorker(env, adminRequest(`203.0.113.${Date.now() % 250}`, TOKEN));
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ active: false });
  });

  it("turns only itself off with an admin token shorter than 32 characters: 503 naming the setting, every platform still answering", async () => {
    const shortEnv = suiteEnv(SHORT_SUITE, { ADMIN_TOKEN: "too-short" });
    const refused = await callWorker(shortEnv, adminRequest("192.0.2.7", "too-short"));
    expect(refused.status).toBe(503);
    const body = await refused.text();
    expect(body).toContain("ADMIN_TOKEN");
    expect(body).not.toContain("too-short");
    expect((await callWorker(shortEnv, new Request("https://bot.test/health"))).status).toBe(200);
    const channel = `CADMINSHORT${Date.now().toString(36).toUpperCase()}`;
    const event = slackMessageEvent({
      team: "TADMINSHORT",
      channel,
      user: "UALICE",
      text: `<@${BOT_USER_ID}> still there?`,
    });
    expect((await callWorker(shortEnv, await signedSlackRequest(event.body))).status).toBe(200);
    await eventually(async () => (await slackPosts(channel)).length === 1, 15_000, "the answer to a mention");
  });

  it("lets parallel guesses from one client compare no more tokens than the allowance", async () => {
    const guesser = `192.0.2.${Date.now() % 250}`;
    const statuses = await Promise.all(
      Array.from({ length: 3 * FAILURES_ALLOWED }, (_, i) => statusOf(env, guesser, `wrong-${i}`)),
    );
    expect(count(statuses, 401)).toBe(FAILURES_ALLOWED);
    expect(count(statuses, 429)).toBe(2 * FAILURES_ALLOWED);
  });

  it("counts an IPv6 client by its /64: other addresses of the network are locked out too, other networks are not", async () => {
    const network = newNetwork();
    for (let i = 0; i < FAILURES_ALLOWED; i++)
      expect(await statusOf(env, `${network}::${(i + 1).toString(16)}`, `wrong-${i}`)).toBe(401);
    expect(await statusOf(env, `${network}:ffff:ffff:ffff:fffe`, TOKEN)).toBe(429);
    expect(await statusOf(env, `${newNetwork()}::1`, TOKEN)).toBe(404);
  });

  it("stops a flood of guesses from many addresses at a ceiling, but not the admin where they logged in before", async () => {
    const flooded = suiteEnv(`${SUITE}flood`, { ADMIN_TOKEN: TOKEN });
    const admin = `${newNetwork()}::1`;
    expect(await statusOf(flooded, admin, TOKEN)).toBe(404);
    const statuses: number[] = [];
    for (let i = 0; i < ALL_FAILURES_ALLOWED + 5; i++)
      statuses.push(await statusOf(flooded, `${newNetwork()}::${i.toString(16)}`, `wrong-${i}`));
    expect(count(statuses, 401)).toBe(ALL_FAILURES_ALLOWED);
    expect(count(statuses, 429)).toBe(5);
    // A newcomer, right token or not, waits; the admin's own network still gets in.
    expect(await statusOf(flooded, `${newNetwork()}::1`, TOKEN)).toBe(429);
    expect(await statusOf(flooded, admin, TOKEN)).toBe(404);
  });

  it("lets someone sharing the admin's address lock it for one short window only", async () => {
    const kit = prodTimingSuite(`${SUITE}share`, { ADMIN_TOKEN: TOKEN });
    const office = `198.51.100.${Date.now() % 250}`;
    for (let i = 0; i < FAILURES_ALLOWED; i++) expect(await statusOf(kit.env, office, `wrong-${i}`)).toBe(401);
    const locked = await callWorker(kit.env, adminRequest(office, TOKEN));
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("Retry-After"))).toBeLessThanOrEqual(WINDOW_MS / 1000);
    await kit.timePasses(WINDOW_MS);
    expect(await statusOf(kit.env, office, TOKEN)).toBe(404);
  });
});
