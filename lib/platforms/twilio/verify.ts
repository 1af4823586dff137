/**
 * @module
 * Twilio request signing: `X-Twilio-Signature` = base64(HMAC-SHA1(auth token, URL + every POST parameter's key and
 * value, sorted by key)). The URL is the public one Twilio was configured with, so it is rebuilt from settings,
 * never trusted from the request. What Twilio's own library (twilio-node `validateRequest`) accepts is accepted
 * here, because Twilio's backend signs inconsistently: the URL without any port and with the scheme's default
 * port, each also with its query string as Node's legacy `querystring` writes it (WHATWG `URL` re-encodes `'`,
 * which Twilio signs as it is), and each parameter value counted once (a repeated parameter with the same value).
 */
import { constantTimeEqual, hmacBase64 } from "../../crypto.ts";

export const TWILIO_SIGNATURE_HEADER = "X-Twilio-Signature";
const DEFAULT_PORTS: Readonly<Record<string, string>> = { "https:": "443", "http:": "80" };

export type TwilioParams = Iterable<readonly [string, string]>;

/** The string Twilio signs: the URL, then `key + value` of each distinct parameter, sorted by key (then value). */
function twilioSigningString(url: string, params: TwilioParams): string {
  const distinct = new Map([...params].map(([key, value]) => [`${key}\u0000${value}`, key + value] as const));
  const sorted = [...distinct].sort(([a], [b]) => compare(a, b));
  return url + sorted.map(([, pair]) => pair).join("");
}

/** The signature Twilio would send for this request. */
export function twilioSignature(authToken: string, url: string, params: TwilioParams): Promise<string> {
  return hmacBase64("SHA-1", authToken, twilioSigningString(url, params));
}

/** True when `signature` matches one of the URL's variants (`urlVariants`); each is checked in constant time. */
export async function verifyTwilioSignature(args: {
  authToken: string;
  url: string;
  params: TwilioParams;
  signature: string | null;
}): Promise<boolean> {
  if (!args.signature) return false;
  const params = [...args.params];
  const candidates = await Promise.all(
    urlVariants(args.url).map((url) => twilioSignature(args.authToken, url, params)),
  );
  let ok = false;
  for (const expected of candidates) ok = constantTimeEqual(expected, args.signature) || ok;
  return ok;
}

/**
 * The URLs twilio-node tries: without any port, with the default port where none is given, and each with the legacy
 * query.
 */
export function urlVariants(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [url];
  }
  const withoutPort = new URL(parsed);
  withoutPort.port = "";
  const bases = [withoutPort.toString(), parsed.port ? parsed.toString() : withDefaultPort(parsed)];
  return [...new Set([url, ...bases, ...bases.map(withLegacyQuery)])];
}

/** The URL with its scheme's default port written out (`URL` itself always drops it). */
function withDefaultPort(url: URL): string {
  const port = DEFAULT_PORTS[url.protocol];
  if (!port) return url.toString();
  const credentials = url.username ? `${url.username}${url.password ? `:${url.password}` : ""}@` : "";
  return `${url.protocol}//${credentials}${url.host}:${port}${url.pathname}${url.search}${url.hash}`;
}

/** The URL with its query as Node's `querystring.stringify(querystring.parse(…))` writes it. */
function withLegacyQuery(url: string): string {
  const at = url.indexOf("?");
  if (at < 0) return url;
  const grouped = new Map<string, string[]>();
  for (const part of url.slice(at + 1).split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    const [key, value] = eq < 0 ? [part, ""] : [part.slice(0, eq), part.slice(eq + 1)];
    const name = unescapeQuery(key);
    grouped.set(name, [...(grouped.get(name) ?? []), unescapeQuery(value)]);
  }
  try {
    const query = [...grouped].flatMap(([key, values]) =>
      values.map((value) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`),
    );
    return `${url.slice(0, at)}?${query.join("&")}`;
  } catch {
    // A lone surrogate cannot be written (Node's querystring throws too): no such variant.
    return url;
  }
}

/** `querystring.unescape`: `+` is a space, and a malformed escape is left as it is. */
function unescapeQuery(text: string): string {
  const spaced = text.replace(/\+/g, " ");
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** Ordinal (code unit) order, as Twilio's own libraries sort; never locale-dependent. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
