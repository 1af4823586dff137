/**
 * @module
 * Twilio's `X-Twilio-Signature`, as Twilio computes it: base64 HMAC-SHA1 with the auth token over the URL the
 * number is configured with, followed by each POST parameter's name and value, sorted by name (ordinal order).
 * Written apart from the Worker's verifier on purpose; both are held to Twilio's published vector.
 */
import { bytesToBase64, hmac } from "../../lib/crypto.ts";

export type FormParams = Iterable<readonly [string, string]>;

export async function twilioSignature(authToken: string, url: string, params: FormParams): Promise<string> {
  const sorted = [...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return bytesToBase64(await hmac("SHA-1", authToken, url + sorted.map(([name, value]) => name + value).join("")));
}

/** Signs a form body as the Worker will read it back: its parameters, decoded as UTF-8. */
export function twilioFormSignature(authToken: string, url: string, body: string | Uint8Array): Promise<string> {
  const text = typeof body === "string" ? body : new TextDecoder().decode(body);
  return twilioSignature(authToken, url, new URLSearchParams(text));
}
