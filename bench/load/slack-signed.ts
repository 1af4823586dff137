/**
 * @module
 * Slack's request signing for bench traffic (events in ./traffic.ts, button presses in ./presses.ts): `v0=` and the
 * HMAC-SHA256 of `v0:<timestamp>:<body>` under the app's signing secret, the timestamp in its own header.
 */
import { createHmac } from "node:crypto";

export const SLACK_SIGNING_SECRET = "bench-slack-signing-secret";

/** A POST of `body` to `url` signed now as Slack signs its requests (events and interactions alike). */
export function slackSignedRequest(
  url: string,
  body: string,
  contentType: string,
  headers: Record<string, string> = {},
): Request {
  const ts = String(Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac("sha256", SLACK_SIGNING_SECRET).update(`v0:${ts}:${body}`).digest("hex")}`;
  return new Request(url, {
    method: "POST",
    headers: {
      "Content-Type": contentType,
      "X-Slack-Request-Timestamp": ts,
      "X-Slack-Signature": signature,
      ...headers,
    },
    body,
  });
}
