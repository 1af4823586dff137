/**
 * @module
 * The Slack fake's rate limits: per method per workspace by tier, chat.postMessage per channel, answered with
 * HTTP 429 `ratelimited` and Retry-After, and counted for tests.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSlack, type SlackHarness } from "./slack-client.ts";

let slack: SlackHarness;
beforeAll(async () => {
  // The real limits in a short window: Tier 2 is still 20 calls, per 2 seconds instead of a minute.
  slack = await startSlack({ rateLimits: { windowMs: 2_000 } });
});
afterAll(() => slack.close());
beforeEach(() => slack.control("/__reset", {}));

interface Stats {
  ratelimited: { total: number; byMethod: Record<string, number> };
}

describe("Slack rate limits", () => {
  it("refuses the 21st Tier 2 call of a workspace in the window with 429 ratelimited and Retry-After", async () => {
    const THREAD = "1715000000.000300";
    for (let i = 0; i < 20; i++) {
      expect((await slack.call("chat.startStream", { channel: "D0DM00001", thread_ts: THREAD })).status).toBe(200);
    }
    const refused = await slack.call("chat.startStream", { channel: "D0DM00001", thread_ts: THREAD });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ ok: false, error: "ratelimited" });
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect((await slack.control<Stats>("/__stats")).ratelimited).toEqual({
      total: 1,
      byMethod: { "chat.startStream": 1 },
    });
  });

  it("counts each workspace apart", async () => {
    const { code } = await slack.control<{ code: string }>("/__install", { team_id: "T0OTHER01" });
    const token = (
      await slack.call(
        "oauth.v2.access",
        { code, client_id: "1111111111.2222222222", client_secret: "fake-slack-client-secret" },
        { token: "", form: true },
      )
    ).body.access_token as string;
    for (let i = 0; i < 20; i++)
      await slack.call("reactions.remove", { channel: "C0CHAN001", timestamp: "1715000000.000001", name: "eyes" });
    expect(
      (await slack.call("reactions.remove", { channel: "C0CHAN001", timestamp: "1715000000.000001", name: "eyes" }))
        .status,
    ).toBe(429);
    expect(
      (
        await slack.call(
          "reactions.remove",
          { channel: "C0CHAN001", timestamp: "1715000000.000001", name: "eyes" },
          { token },
        )
      ).status,
    ).toBe(200);
  });

  it("lets chat.postMessage burst a little per channel, then about one a second", async () => {
    await slack.control("/__config", { rateLimits: { postMessageBurst: 3, postMessageIntervalMs: 100 } });
    for (let i = 0; i < 3; i++)
      expect((await slack.call("chat.postMessage", { channel: "C0BUSY001", text: `m${i}` })).status).toBe(200);
    expect((await slack.call("chat.postMessage", { channel: "C0BUSY001", text: "too soon" })).status).toBe(429);
    expect((await slack.call("chat.postMessage", { channel: "C0CALM001", text: "other channel" })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await slack.call("chat.postMessage", { channel: "C0BUSY001", text: "later" })).status).toBe(200);
  });

  it("can be switched off for tests that are about something else", async () => {
    await slack.control("/__config", { rateLimits: { enabled: false } });
    for (let i = 0; i < 25; i++)
      expect(
        (await slack.call("chat.startStream", { channel: "D0DM00001", thread_ts: "1715000000.000400" })).status,
      ).toBe(200);
  });
});
