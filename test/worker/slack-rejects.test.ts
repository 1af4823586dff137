import { Redis } from "@upstash/redis/cloudflare";
import { describe, expect, it, vi } from "vitest";
import { signedSlackRequest, slackMessageEvent, BOT_USER_ID } from "../support/slack.ts";
import { callWorker, settle, pumpJobsDuringSuite, suiteEnv } from "../support/worker.ts";

const SUITE = "slackrej";
const env = suiteEnv(SUITE);
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
const place = { team: "TSLACKREJ", channel: "CREJECTS" };

const pump = pumpJobsDuringSuite(env, SUITE);

async function suiteKeys(): Promise<string[]> {
  return redis.keys(`t-${SUITE}:*`);
}

const mention = () => slackMessageEvent({ ...place, user: "UALICE", text: `<@${BOT_USER_ID}> hello` }).body;

describe("Slack requests that must change nothing", () => {
  it.each([
    ["a wrong signature", async () => signedSlackRequest(mention(), { secret: "not-the-secret" }), 401],
    [
      "a timestamp six minutes old",
      async () => signedSlackRequest(mention(), { timestamp: Math.floor(Date.now() / 1000) - 360 }),
      401,
    ],
    [
      "a timestamp six minutes ahead",
      async () => signedSlackRequest(mention(), { timestamp: Math.floor(Date.now() / 1000) + 360 }),
      401,
    ],
    [
      "no signature headers",
      async () => new Request("https://bot.test/slack/events", { method: "POST", body: mention() }),
      401,
    ],
    ["malformed JSON", async () => signedSlackRequest("{not json"), 400],
    [
      "an envelope of the wrong shape",
      async () => signedSlackRequest(JSON.stringify({ type: "event_callback", event: 42 })),
      400,
    ],
  ])("%s is refused with %#", async (_name, build, status) => {
    const res = await callWorker(env, await build());
    expect(res.status).toBe(status);
    await settle(300);
    expect(await suiteKeys()).toEqual([]);
    expect(pump.answers).toEqual([]);
  });

  it("an event whose user id is not Slack's gets a 400 naming the field, and its log line never carries the id", async () => {
    const forged = 'UALICE\u0007\n{"event":"forged","level":"info"}';
    const warnings = vi.spyOn(console, "warn");
    const body = slackMessageEvent({ ...place, user: forged, text: `<@${BOT_USER_ID}> hello` }).body;
    const res = await callWorker(env, await signedSlackRequest(body));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "unexpected slack payload", issues: "event.user: not a Slack id" });
    const lines = warnings.mock.calls.map((call) => String(call[0]));
    warnings.mockRestore();
    expect(lines.filter((line) => line.includes('"event":"slack_invalid"'))).toHaveLength(1);
    expect(lines.join("\n")).not.toContain("forged");
    expect(lines.join("\n")).not.toContain("UALICE");
    await settle(300);
    expect(await suiteKeys()).toEqual([]);
    expect(pump.answers).toEqual([]);
  });

  it("an event without text is acknowledged silently", async () => {
    const body = JSON.parse(mention()) as { event: Record<string, unknown> };
    delete body.event.text;
    const res = await callWorker(env, await signedSlackRequest(JSON.stringify(body)));
    expect(res.status).toBe(200);
    await settle(300);
    expect(await suiteKeys()).toEqual([]);
    expect(pump.answers).toEqual([]);
  });

  it("answers url_verification with the challenge, and ssl_check with 200", async () => {
    const res = await callWorker(
      env,
      await signedSlackRequest(JSON.stringify({ type: "url_verification", challenge: "abc123", token: "t" })),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ challenge: "abc123" });
    const ssl = await callWorker(
      env,
      new Request("https://bot.test/slack/events", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "ssl_check=1&token=legacy",
      }),
    );
    expect(ssl.status).toBe(200);
  });

  it("answers 503 when the conversation store is down, so that Slack retries", async () => {
    const down = suiteEnv(SUITE, { UPSTASH_REDIS_REST_URL: "http://127.0.0.1:9" });
    const res = await callWorker(down, await signedSlackRequest(mention()));
    expect(res.status).toBe(503);
  });
});
