/**
 * @module
 * Twilio request signing: `X-Twilio-Signature` = base64(HMAC-SHA1(auth token, URL + every POST parameter's key and
 * value, sorted by key)). The URL is the public one Twilio was configured with, so it is rebuilt from settings,
 * never trusted from the request; it is accepted with and without the scheme's default port.
 */
import { constantTimeEqual, hmacBase64 } from "../../crypto.ts";

export const TWILIO_SIGNATURE_HEADER = "X-Twilio-Signature";
const DEFAULT_PORTS: Readonly<Record<string, string>> = { https: "443", http: "80" };
const URL_PARTS = /^(https?):\/\/([^/?#]+)(.*)$/i;

export type TwilioParams = Iterable<readonly [string, string]>;

/** The string Twilio signs: the URL, then `key + value` of each parameter, sorted by key (then value). */
export function twilioSigningString(url: string, params: TwilioParams): string {
  const pairs = [...params].sort(([ka, va], [kb, vb]) => compare(ka, kb) || compare(va, vb));
  return url + pairs.map(([key, value]) => key + value).join("");
}

/** The signature Twilio would send for this request. */
export function twilioSignature(authToken: string, url: string, params: TwilioParams): Promise<string> {
  return hmacBase64("SHA-1", authToken, twilioSigningString(url, params));
}

/**
 * True when `signature` matches the URL as given or with its default port added or removed (Twilio signs
 * the URL as configured on the number, which may or may not spell out `:443`). Every variant is checked in
 * constant time, whatever the outcome.
 */
export async function verifyTwilioSignature(args: {
  authToken: string;
  url: string;
  params: TwilioParams;
  signature: string | null;
}): Promise<boolean> {
  if (!args.signature) return false;
  const params = [...args.params];
  const candidates = await Promise.all(urlVariants(args.url).map((url) => twilioSignature(args.authToken, url, params)));
  let ok = false;
  for (const expected of candidates) ok = constantTimeEqual(expected, args.signature) || ok;
  return ok;
}

/** The URL itself and the same URL with the scheme's default port toggled. */
export function urlVariants(url: string): string[] {
  const parts = URL_PARTS.exec(url);
  if (!parts) return [url];
  const [, scheme, authority, rest] = parts as unknown as [string, string, string, string];
  const port = DEFAULT_PORTS[scheme.toLowerCase()]!;
  const suffix = `:${port}`;
  // `user@host` never appears in a webhook URL; an IPv6 host ends with `]`, so the suffix test stays exact.
  const toggled = authority.endsWith(suffix)
    ? authority.slice(0, -suffix.length)
    : /:\d+$/.test(authority)
      ? null
      : authority + suffix;
  return toggled === null ? [url] : [url, `${scheme}://${toggled}${rest}`];
}

/** Ordinal (code unit) order, as Twilio's own libraries sort; never locale-dependent. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
