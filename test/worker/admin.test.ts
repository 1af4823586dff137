import { describe, expect, it } from "vitest";
import { BOT_USER_ID, signedSlackRequest, slackMessageEvent, slackPosts } from "../support/slack.ts";
import { callWorker, eventually, pumpJobsDuringSuite, suiteEnv } from "../support/worker.ts";

const SUITE = "admin";
const SHORT_SUITE = "adminshort";
const TOKEN = "admin-token-for-tests-0123456789abcdef";
const env = suiteEnv(SUITE, { ADMIN_TOKEN: TOKEN });
const place = encodeURIComponent("slack|TADMIN|CADMIN|");
/** What the route allows an address before it locks it out (lib/limits/limiters.ts). */
const FAILURES_ALLOWED = 10;

pumpJobsDuringSuite(suiteEnv(SHORT_SUITE, { ADMIN_TOKEN: "too-short" }), SHORT_SUITE);

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

  it("turns only itself off with an admin token shorter than 32 characters: 503 naming the setting, every platform still answering", async () => {
    const shortEnv = suiteEnv(SHORT_SUITE, { ADMIN_TOKEN: "too-short" });
    const refused = await callWorker(shortEnv, adminRequest("192.0.2.7", "too-short"));
    expect(refused.status).toBe(503);
    const body = await refused.text();
    expect(body).toContain("ADMIN_TOKEN");
    expect(body).not.toContain("too-short");
    expect((await callWorker(shortEnv, new Request("https://bot.test/health"))).status).toBe(200);
    const channel = `CADMINSHORT${Date.now().toString(36).toUpperCase()}`;
    const event = slackMessageEvent({ team: "TADMINSHORT", channel, user: "UALICE", text: `<@${BOT_USER_ID}> still there?` });
    expect((await callWorker(shortEnv, await signedSlackRequest(event.body))).status).toBe(200);
    await eventually(async () => (await slackPosts(channel)).length === 1, 15_000, "the answer to a mention");
  });
});
