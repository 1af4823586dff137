/**
 * @module
 * Whether fetch_page (./fetch-page.ts) may fetch from a host name: not one of FETCH_DENIED_HOSTS, one of
 * FETCH_ALLOWED_HOSTS when that is set, and a name whose every address is public. A Worker has no resolver of its
 * own, so the name is resolved over DNS over HTTPS (FETCH_DNS_URL, the JSON API of Cloudflare's and Google's
 * resolvers), A and AAAA, and refused when any address is private, loopback, link-local, unique-local, shared
 * (CGNAT), reserved or multicast, when it does not resolve, and when the resolver does not answer. What it cannot
 * guard (the name answering otherwise when the page is fetched: DNS rebinding) is in docs/tools.md.
 */
import * as z from "../zod.ts";

/** A host name list entry covers the name and every name under it. */
function hostListed(host: string, entries: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return entries.some((entry) => name === entry || name.endsWith(`.${entry}`));
}

const dohAnswerSchema = z.looseObject({
  Status: z.number(),
  Answer: z.optional(z.array(z.looseObject({ type: z.number(), data: z.string() }))),
});
const A = 1;
const AAAA = 28;
/** RCODE 3: the name does not exist. */
const NXDOMAIN = 3;

export interface HostRules {
  dnsUrl: string;
  allowed?: readonly string[] | undefined;
  denied: readonly string[];
  signal: AbortSignal;
}

/** Why `host` may not be fetched from, or null when it may. */
export async function hostRefusal(host: string, rules: HostRules): Promise<string | null> {
  if (hostListed(host, rules.denied)) return "this site is refused by the bot's settings";
  if (rules.allowed && !hostListed(host, rules.allowed)) return "only the sites the bot's settings allow are fetched";
  const answers = await Promise.all([A, AAAA].map((type) => resolve(host, type, rules)));
  if (answers.includes(null)) return "the page's name could not be checked (the resolver did not answer)";
  const addresses = answers.flatMap((a) => a ?? []);
  if (addresses.length === 0) return "the page's name does not resolve";
  if (addresses.some((a) => !isPublicAddress(a))) return "the page's name resolves to a private address: refused";
  return null;
}

/** The addresses of `type` the resolver gives for `host` ([] for none); null when it did not answer. */
async function resolve(host: string, type: number, rules: HostRules): Promise<string[] | null> {
  try {
    const url = `${rules.dnsUrl}?name=${encodeURIComponent(host)}&type=${type}`;
    const res = await fetch(url, { headers: { accept: "application/dns-json" }, signal: rules.signal });
    if (!res.ok) return null;
    const parsed = dohAnswerSchema.safeParse(await res.json());
    if (!parsed.success || (parsed.data.Status !== 0 && parsed.data.Status !== NXDOMAIN)) return null;
    return (parsed.data.Answer ?? []).filter((r) => r.type === type).map((r) => r.data);
  } catch {
    return null;
  }
}

/** IPv4 blocks that are not the public internet (RFC 6890 and its updates), as [first address, prefix length]. */
const PRIVATE_V4_BLOCKS: readonly (readonly [number, number])[] = [
  [0x00000000, 8], // "this network"
  [0x0a000000, 8],
  [0x64400000, 10], // shared address space (CGNAT)
  [0x7f000000, 8],
  [0xa9fe0000, 16], // link-local, cloud metadata
  [0xac100000, 12],
  [0xc0000000, 24],
  [0xc0000200, 24],
  [0xc0a80000, 16],
  [0xc6120000, 15],
  [0xc6336400, 24],
  [0xcb007100, 24],
  [0xe0000000, 4], // multicast
  [0xf0000000, 4], // reserved, broadcast
];
const PRIVATE_V4 = PRIVATE_V4_BLOCKS.map(([base, bits]) => ({ base, mask: (0xffffffff << (32 - bits)) >>> 0 }));

function v4Number(address: string): number | null {
  const parts = address.split(".");
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

/**
 * True for an address on the public internet. IPv6 only from global unicast (2000::/3), without documentation
 * (2001:db8::/32), Teredo (2001::/32) and 6to4 (2002::/16, which carries an IPv4 address): so loopback, link-local
 * (fe80::/10), unique-local (fc00::/7), IPv4-mapped and NAT64 addresses are refused. Anything unreadable is refused.
 */
export function isPublicAddress(address: string): boolean {
  const v4 = v4Number(address);
  if (v4 !== null) return !PRIVATE_V4.some(({ base, mask }) => (v4 & mask) >>> 0 === base);
  if (!/^[0-9a-f:]+$/i.test(address) || !address.includes(":")) return false;
  const first = Number.parseInt(address.split(":")[0] || "0", 16);
  const second = Number.parseInt(address.split(":")[1] || "0", 16);
  if ((first & 0xe000) !== 0x2000) return false;
  return !(first === 0x2001 && (second === 0x0db8 || second === 0)) && first !== 0x2002;
}
