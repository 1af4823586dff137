/**
 * @module
 * Twilio's `X-Twilio-Signature`, as Twilio computes it: base64 HMAC-SHA1 with the auth token over the URL the
 * number is configured with, followed by each POST parameter's name and value, sorted by name (ordinal order), a
 * repeated name's distinct values sorted (as twilio-node's getExpectedTwilioSignature). Written apart from the
 * Worker's verifier on purpose; both are held to Twilio's published vectors.
 */
import { bytesToBase64 } from "../../lib/base64.ts";
import { hmac } from "../../lib/crypto.ts";

export type FormParams = Iterable<readonly [string, string]>;

export async function twilioSignature(authToken: string, url: string, params: FormParams): Promise<string> {
  const byName = new Map<string, Set<string>>();
  for (const [name, value] of params) byName.set(name, (byName.get(name) ?? new Set()).add(value));
  const ordinal = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const data = [...byName.keys()].sort(ordinal).map((name) =>
    [...byName.get(name)!]
      .sort(ordinal)
      .map((value) => name + value)
      .join(""),
  );
  return bytesToBase64(await hmac("SHA-1", authToken, url + data.join("")));
}

/** Signs a form body as the Worker will read it back: its parameters, decoded as UTF-8. */
export function twilioFormSignature(authToken: string, url: string, body: string | Uint8Array): Promise<string> {
  const text = typeof body === "string" ? body : new TextDecoder().decode(body);
  return twilioSignature(authToken, url, new URLSearchParams(text));
}
