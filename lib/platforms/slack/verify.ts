/**
 * @module
 * Slack request signing (v0): HMAC-SHA256 over `v0:{timestamp}:{rawBody}` with the app's signing secret,
 * rejected outside a 5-minute window in either direction. Run it on the raw body, before parsing anything.
 */
import { constantTimeEqual, hmacHex } from "../../crypto.ts";

export const SLACK_SIGNATURE_HEADER = "X-Slack-Signature";
export const SLACK_TIMESTAMP_HEADER = "X-Slack-Request-Timestamp";
const SIGNATURE_VERSION = "v0";
/** Slack's documented replay window. */
const SLACK_MAX_CLOCK_SKEW_SECONDS = 300;

export type SlackVerifyResult =
  | { ok: true }
  | { ok: false; reason: "missing_headers" | "stale_timestamp" | "bad_signature" };

/** Checks a Slack request's signature; a timestamp more than 300 s in the past OR the future is refused. */
export async function verifySlackRequest(args: {
  signingSecret: string;
  timestamp: string | null;
  signature: string | null;
  rawBody: string;
  nowSeconds: number;
}): Promise<SlackVerifyResult> {
  const { signingSecret, timestamp, signature, rawBody, nowSeconds } = args;
  if (!timestamp || !signature) return { ok: false, reason: "missing_headers" };
  // Digits only: `Number("1e3")` or " 12" would otherwise slip through and change the signed base string's meaning.
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: "stale_timestamp" };
  if (Math.abs(nowSeconds - Number(timestamp)) > SLACK_MAX_CLOCK_SKEW_SECONDS) {
    return { ok: false, reason: "stale_timestamp" };
  }
  const expected = `${SIGNATURE_VERSION}=${await hmacHex(
    "SHA-256",
    signingSecret,
    `${SIGNATURE_VERSION}:${timestamp}:${rawBody}`,
  )}`;
  return constantTimeEqual(expected, signature) ? { ok: true } : { ok: false, reason: "bad_signature" };
}
