import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { slackSignature } from "../../dev/signers/slack.ts";
import { verifySlackRequest } from "../../lib/platforms/slack/verify.ts";

// Slack's published example (platforms.md).
const SECRET = "8f742231b10e8888abcd99yyyzzz85a5";
const TIMESTAMP = "1531420618";
const BODY =
  "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";
const SIGNATURE = "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503";
const NOW = Number(TIMESTAMP);

const request = (overrides: Partial<Parameters<typeof verifySlackRequest>[0]> = {}) =>
  verifySlackRequest({
    signingSecret: SECRET,
    timestamp: TIMESTAMP,
    signature: SIGNATURE,
    rawBody: BODY,
    nowSeconds: NOW,
    ...overrides,
  });

describe("verifySlackRequest", () => {
  it("accepts Slack's published example", async () => {
    expect(await request()).toEqual({ ok: true });
  });

  it("accepts a request signed up to five minutes ago or ahead", async () => {
    expect(await request({ nowSeconds: NOW + 300 })).toEqual({ ok: true });
    expect(await request({ nowSeconds: NOW - 300 })).toEqual({ ok: true });
  });

  it("refuses a replay older than five minutes", async () => {
    expect(await request({ nowSeconds: NOW + 301 })).toEqual({ ok: false, reason: "stale_timestamp" });
  });

  it("refuses a timestamp more than five minutes in the future", async () => {
    expect(await request({ nowSeconds: NOW - 301 })).toEqual({ ok: false, reason: "stale_timestamp" });
  });

  it("refuses a timestamp that is not plain digits", async () => {
    expect(await request({ timestamp: "1.531420618e9" })).toEqual({ ok: false, reason: "stale_timestamp" });
  });

  it("refuses a body changed after signing", async () => {
    const tampered = BODY.replace("user_name=roadrunner", "user_name=coyote");
    expect(await request({ rawBody: tampered })).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("refuses a signature made with another secret, or cut short, or in another version", async () => {
    const other = await slackSignature("another-secret", TIMESTAMP, BODY);
    expect(await request({ signature: other })).toEqual({ ok: false, reason: "bad_signature" });
    expect(await request({ signature: SIGNATURE.slice(0, -2) })).toEqual({ ok: false, reason: "bad_signature" });
    expect(await request({ signature: SIGNATURE.replace("v0=", "v1=") })).toEqual({
      ok: false,
      reason: "bad_signature",
    });
  });

  it("refuses a request without the signature or timestamp header", async () => {
    expect(await request({ signature: null })).toEqual({ ok: false, reason: "missing_headers" });
    expect(await request({ timestamp: null })).toEqual({ ok: false, reason: "missing_headers" });
    expect(await request({ signature: "" })).toEqual({ ok: false, reason: "missing_headers" });
  });
});

interface SlackVector {
  case: string;
  secret: string;
  timestamp: string;
  body: string;
  signature: string;
  valid: boolean;
}
const VECTORS = (
  JSON.parse(readFileSync(join(import.meta.dirname, "../fixtures/platforms/slack/signature-vectors.json"), "utf8")) as {
    vectors: SlackVector[];
  }
).vectors;

describe("Slack's published signature vectors (test/fixtures/platforms/slack/signature-vectors.json)", () => {
  it.each(VECTORS.map((v) => [v.case, v] as const))("%s", async (_name, v) => {
    const verdict = await verifySlackRequest({
      signingSecret: v.secret,
      timestamp: v.timestamp,
      signature: v.signature,
      rawBody: v.body,
      nowSeconds: Number(v.timestamp),
    });
    expect(verdict.ok).toBe(v.valid);
    if (v.valid) expect(await slackSignature(v.secret, v.timestamp, v.body)).toBe(v.signature);
  });
});
