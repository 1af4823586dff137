/**
 * @module
 * What POST /teams/messages refuses before anything of the activity is used (issue #39): a missing, forged, expired
 * or other app's token, a token whose `serviceurl` claim is not the activity's service URL, a key the Connector's set
 * does not endorse for Teams, and a service URL the bot's token must never go to, each 401; a signed body that is not
 * an activity 400; and a malformed Teams setting, which turns Teams off (503 naming it) while the Worker serves on.
 */
import { describe, expect, it } from "vitest";
import { botMessages, deliver, newConversation, newPerson, say, teamsSuiteEnv } from "../support/teams.ts";
import { callWorker } from "../support/worker.ts";

const env = teamsSuiteEnv("teamsrej");

async function mention(overrides: { claims?: Record<string, unknown>; key?: "unendorsed" } = {}) {
  const channel = await newConversation("channel");
  const said = await say(channel, newPerson("Mallory"), "hello there", { mention: true, ...overrides });
  return { channel, delivery: said.delivery! };
}

describe("POST /teams/messages", () => {
  it("accepts a delivery as the Bot Connector signs it", async () => {
    const { delivery } = await mention();
    expect((await deliver(env, delivery)).status).toBe(200);
  });

  it("refuses a delivery without a token, with a forged signature or from another app's token (401)", async () => {
    const { delivery } = await mention();
    expect((await deliver(env, delivery, null)).status).toBe(401);
    const [head, claims, signature] = delivery.authorization.slice("Bearer ".length).split(".");
    const forged = `${signature!.slice(0, -4)}${signature!.endsWith("AAAA") ? "BBBB" : "AAAA"}`;
    expect((await deliver(env, delivery, `Bearer ${head}.${claims}.${forged}`)).status).toBe(401);
    const other = await mention({ claims: { aud: "5b1d2e3f-0000-4000-8000-000000000000" } });
    expect((await deliver(env, other.delivery)).status).toBe(401);
  });

  it("refuses an expired token (past the five minutes of clock skew) and one not yet valid", async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await mention({ claims: { nbf: now - 7_200, exp: now - 400 } });
    expect((await deliver(env, expired.delivery)).status).toBe(401);
    const early = await mention({ claims: { nbf: now + 900, exp: now + 4_000 } });
    expect((await deliver(env, early.delivery)).status).toBe(401);
    const skewed = await mention({ claims: { nbf: now - 3_600, exp: now - 120 } });
    expect((await deliver(env, skewed.delivery)).status).toBe(200);
  });

  it("refuses a token whose serviceurl claim is not the activity's service URL (401)", async () => {
    const { channel, delivery } = await mention({ claims: { serviceurl: "https://smba.trafficmanager.net/emea/" } });
    expect((await deliver(env, delivery)).status).toBe(401);
    expect(await botMessages(channel)).toEqual([]);
  });

  it("refuses a token signed with a key the Connector does not endorse for msteams (401)", async () => {
    const { delivery } = await mention({ key: "unendorsed" });
    expect((await deliver(env, delivery)).status).toBe(401);
  });

  it("refuses a validly signed activity whose service URL the bot's token must not go to (401)", async () => {
    const evil = "https://collector.example.net/amer/";
    const { delivery } = await mention({ claims: { serviceurl: evil } });
    const forwarded = { ...delivery, body: { ...delivery.body, serviceUrl: evil } };
    expect((await deliver(env, forwarded)).status).toBe(401);
  });

  it("answers 400 for a signed body that is not an activity", async () => {
    const { delivery } = await mention();
    const res = await deliver(env, { ...delivery, body: { ...delivery.body, conversation: "not an object" } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).not.toContain("hello there");
  });

  it("turns Teams off, naming the setting, when one is malformed; the Worker serves on", async () => {
    const broken = teamsSuiteEnv("teamsrej", { TEAMS_LOGIN_URL: "not a url" });
    const { delivery } = await mention();
    const res = await deliver(broken, delivery);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ settings: ["TEAMS_LOGIN_URL"] });
    expect((await callWorker(broken, new Request("https://worker.test/health"))).status).toBe(200);
  });
});
