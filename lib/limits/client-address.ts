/**
 * @module
 * Who a client is, for limits on unauthenticated routes (the admin view's failed logins, started installs): its
 * IPv4 address, or the /64 network of its IPv6 address. One subscriber is usually given a whole /64 and can pick
 * any of its 2^64 addresses, so counting per IPv6 address would count nothing. The address comes from Cloudflare's
 * CF-Connecting-IP; what is not an address (a local request, a test) counts as itself, cut to a bounded length.
 * Limits key on a keyed pseudonym of it, so no address is written to Redis.
 */
import type { RuntimeSecrets } from "../services.ts";

/** Only what comes from a request that did not pass Cloudflare; long enough to keep such clients apart. */
const MAX_OTHER_CHARS = 64;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/;
const IPV6_GROUPS = 8;
const NETWORK_GROUPS = 4;

/** `203.0.113.9`, `2001:db8:1:2::/64` (the network of any of its addresses), or the text itself, bounded. */
export function clientOf(address: string): string {
  const text = address.trim().toLowerCase();
  if (IPV4.test(text)) return text;
  const groups = ipv6Groups(text);
  if (groups === null) return text.slice(0, MAX_OTHER_CHARS);
  // An IPv4 address written as IPv6 (`::ffff:203.0.113.9`) is that IPv4 client.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  }
  return `${groups
    .slice(0, NETWORK_GROUPS)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/** The pseudonym a limit's key names the client by. */
export async function clientId(secrets: Pick<RuntimeSecrets, "pseudonyms">, address: string): Promise<string> {
  return secrets.pseudonyms.of(`client|${clientOf(address)}`);
}

/**
 * The eight 16-bit groups of an IPv6 address (`::` expanded, a zone dropped, a trailing IPv4 part read); null when it
 * is not one.
 */
function ipv6Groups(text: string): number[] | null {
  const address = text.replace(/%.*$/, "");
  const halves = address.split("::");
  if (halves.length > 2) return null;
  const parts = (half: string | undefined) => (half ? half.split(":") : []);
  const head = parts(halves[0]);
  const tail = parts(halves[1]);
  const last = (tail.length > 0 ? tail : head).at(-1);
  if (last !== undefined && IPV4.test(last)) {
    const [a, b, c, d] = last.split(".").map(Number) as [number, number, number, number];
    (tail.length > 0 ? tail : head).splice(-1, 1, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
  }
  const missing = IPV6_GROUPS - head.length - tail.length;
  if ((halves.length === 2 ? missing < 1 : missing !== 0) || ![...head, ...tail].every((g) => HEX_GROUP.test(g)))
    return null;
  return [...head, ...Array.from({ length: halves.length === 2 ? missing : 0 }, () => "0"), ...tail].map((g) =>
    parseInt(g, 16),
  );
}
