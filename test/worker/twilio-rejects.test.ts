import { Redis } from "@upstash/redis/cloudflare";
import { describe, expect, it } from "vitest";
import {
  newSender,
  signedSmsRequest,
  smsParams,
  smsSentTo,
  TWILIO_AUTH_TOKEN,
  WEBHOOK_PATH,
  twilioSuiteEnv,
} from "../support/twilio.ts";
import { callWorker, settle } from "../support/worker.ts";

const SUITE = "twrejects";
const env = twilioSuiteEnv(SUITE, { SMS_BURST_WINDOW_SECONDS: "0" });
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

async function keysOf(sender: string): Promise<string[]> {
  return redis.keys(`t-${SUITE}:*${sender}*`);
}

async function expectRefusedAndNothingWritten(res: Response, sender: string, status = 401): Promise<void> {
  expect(res.status).toBe(status);
  await settle(300);
  expect(await keysOf(sender)).toEqual([]);
  expect(await smsSentTo(sender)).toEqual([]);
}

describe("the Twilio webhook's signature check", () => {
  it("answers a correctly signed text with empty TwiML as text/xml", async () => {
    const from = newSender();
    const res = await callWorker(env, await signedSmsRequest(env, smsParams({ from, body: "HELP" })));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/xml/);
    expect(await res.text()).toBe(EMPTY_TWIML);
    expect((await keysOf(from)).length).toBeGreaterThan(0);
  });

  it("refuses a changed parameter with 401 and writes nothing", async () => {
    const from = newSender();
    const params = smsParams({ from, body: "what time is it?" });
    const tampered = params.map(([k, v]): [string, string] => [k, k === "Body" ? "send me everything" : v]);
    await expectRefusedAndNothingWritten(
      await callWorker(env, await signedSmsRequest(env, params, { sendParams: tampered })),
      from,
    );
  });

  it("refuses an added parameter with 401 and writes nothing", async () => {
    const from = newSender();
    const params = smsParams({ from, body: "hello" });
    await expectRefusedAndNothingWritten(
      await callWorker(env, await signedSmsRequest(env, params, { sendParams: [...params, ["Extra", "1"]] })),
      from,
    );
  });

  it("refuses a signature made for another URL or query string with 401 and writes nothing", async () => {
    const from = newSender();
    const params = smsParams({ from, body: "hello" });
    const elsewhere = await signedSmsRequest(env, params, { signedUrl: `https://attacker.example${WEBHOOK_PATH}` });
    await expectRefusedAndNothingWritten(await callWorker(env, elsewhere), from);
    const otherQuery = await signedSmsRequest(env, params, {
      signedUrl: `${String(env.PUBLIC_BASE_URL)}${WEBHOOK_PATH}?a=1`,
      query: "?a=2",
    });
    await expectRefusedAndNothingWritten(await callWorker(env, otherQuery), from);
  });

  it("refuses a signature made with another auth token, or none, with 401 and writes nothing", async () => {
    const from = newSender();
    const params = smsParams({ from, body: "hello" });
    await expectRefusedAndNothingWritten(
      await callWorker(env, await signedSmsRequest(env, params, { token: `${TWILIO_AUTH_TOKEN}x` })),
      from,
    );
    const unsigned = await signedSmsRequest(env, params);
    unsigned.headers.delete("X-Twilio-Signature");
    await expectRefusedAndNothingWritten(await callWorker(env, unsigned), from);
  });

  it("accepts the query string Twilio signed, and the public URL with or without its default port", async () => {
    const publicEnv = twilioSuiteEnv(SUITE, { PUBLIC_BASE_URL: "https://parley.example" });
    for (const signedUrl of [
      `https://parley.example${WEBHOOK_PATH}?bot=1`,
      `https://parley.example:443${WEBHOOK_PATH}?bot=1`,
    ]) {
      const from = newSender();
      const req = await signedSmsRequest(publicEnv, smsParams({ from, body: "HELP" }), { signedUrl, query: "?bot=1" });
      expect((await callWorker(publicEnv, req)).status).toBe(200);
    }
  });

  it("accepts what Twilio's own library accepts: a non-default port signed without it, a repeated parameter, a quote in the query", async () => {
    const portEnv = twilioSuiteEnv(SUITE, { PUBLIC_BASE_URL: "https://parley.example:8443" });
    const portless = await signedSmsRequest(portEnv, smsParams({ from: newSender(), body: "HELP" }), {
      signedUrl: `https://parley.example${WEBHOOK_PATH}`,
    });
    expect((await callWorker(portEnv, portless)).status).toBe(200);

    const publicEnv = twilioSuiteEnv(SUITE, { PUBLIC_BASE_URL: "https://parley.example" });
    const params = smsParams({ from: newSender(), body: "HELP" });
    const repeated = await signedSmsRequest(publicEnv, params, { sendParams: [...params, ["NumSegments", "1"]] });
    expect((await callWorker(publicEnv, repeated)).status).toBe(200);

    // Twilio signs the query as configured; the Worker's URL has the quote re-encoded (%27).
    const quoted = await signedSmsRequest(publicEnv, smsParams({ from: newSender(), body: "HELP" }), {
      signedUrl: `https://parley.example${WEBHOOK_PATH}?shop=O'Hara`,
      query: "?shop=O'Hara",
    });
    expect(new URL(quoted.url).search).toBe("?shop=O%27Hara");
    expect((await callWorker(publicEnv, quoted)).status).toBe(200);
  });

  it("refuses a signed form that is not an SMS webhook with 400 and writes nothing", async () => {
    const from = newSender();
    const params = smsParams({ from, body: "hello" }).filter(([k]) => k !== "MessageSid");
    const res = await callWorker(env, await signedSmsRequest(env, params));
    await expectRefusedAndNothingWritten(res, from, 400);
  });
});
