/**
 * @module
 * Slack's v0 request signature, as Slack computes it: `v0=` + hex HMAC-SHA256 of `v0:{timestamp}:{body}` with the
 * app's signing secret. WebCrypto only, so tests in workerd, the simulator and the benches share it.
 */
import { bytesToHex, hmac } from "../../lib/crypto.ts";
import { nowSeconds, prefixed, type Body } from "./body.ts";

export async function slackSignature(secret: string, timestamp: string, body: Body): Promise<string> {
  return `v0=${bytesToHex(await hmac("SHA-256", secret, prefixed(`v0:${timestamp}:`, body)))}`;
}

/** The two headers of a signed Events API delivery; `timestamp` (Unix seconds) defaults to now. */
export async function slackHeaders(
  secret: string,
  body: Body,
  timestamp: number | string = nowSeconds(),
): Promise<Record<string, string>> {
  const ts = String(timestamp);
  return { "X-Slack-Request-Timestamp": ts, "X-Slack-Signature": await slackSignature(secret, ts, body) };
}
