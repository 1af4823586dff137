/**
 * fetch_page and the names it is given (issue #41, finding 6): a name is resolved over DNS over HTTPS before the
 * page is asked for, and refused when any address is not public, as `127.0.0.1.nip.io`, `169.254.169.254.nip.io`
 * and `localtest.me` are; FETCH_DENIED_HOSTS and FETCH_ALLOWED_HOSTS narrow it further, and a malformed one turns
 * off fetch_page alone, saying so. The resolver is a local fake speaking the DoH JSON API.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSettings } from "../../lib/config.ts";
import { fetchPageTool } from "../../lib/tools/fetch-page.ts";
import { hostRefusal, isPublicAddress } from "../../lib/tools/page-host.ts";
import { type ToolContext, ToolRefusal } from "../../lib/tools/tool.ts";
import { MINIMAL_SETTINGS } from "../support/settings.ts";

/** What the fake resolver knows: name → records (type 1 A, 5 CNAME, 28 AAAA); a name it does not know: NXDOMAIN. */
const ZONE: Record<string, { type: number; data: string }[]> = {
  "127.0.0.1.nip.io": [{ type: 1, data: "127.0.0.1" }],
  "169.254.169.254.nip.io": [{ type: 1, data: "169.254.169.254" }],
  "localtest.me": [
    { type: 1, data: "127.0.0.1" },
    { type: 28, data: "::1" },
  ],
  "mixed.example": [
    { type: 1, data: "93.184.216.34" },
    { type: 28, data: "fd00::1" },
  ],
  "alias.example": [
    { type: 5, data: "internal.example." },
    { type: 1, data: "10.0.0.5" },
  ],
  "example.com": [
    { type: 1, data: "93.184.216.34" },
    { type: 28, data: "2606:2800:220:1:248:1893:25c8:1946" },
  ],
};
let resolver: Server;
let dnsUrl: string;
const asked: string[] = [];

beforeAll(async () => {
  resolver = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://resolver");
    const name = url.searchParams.get("name") ?? "";
    const type = Number(url.searchParams.get("type"));
    asked.push(`${name} ${type}`);
    const records = ZONE[name.replace(/\.$/, "")];
    const answer = records?.filter((r) => r.type === type || r.type === 5).map((r) => ({ name, TTL: 60, ...r }));
    res.setHeader("content-type", "application/dns-json");
    res.end(JSON.stringify(records ? { Status: 0, Answer: answer } : { Status: 3 }));
  });
  await new Promise<void>((done) => resolver.listen(0, "127.0.0.1", done));
  dnsUrl = `http://127.0.0.1:${(resolver.address() as AddressInfo).port}/dns-query`;
});
afterAll(() => new Promise<void>((done) => resolver.close(() => done())));

/** fetch_page's outcome for `url` with these settings: its refusal, or "fetched" when it went on to the page. */
async function fetchPage(url: string, env: Record<string, string> = {}): Promise<string> {
  const settings = parseSettings({ ...MINIMAL_SETTINGS, FETCH_DNS_URL: dnsUrl, ...env });
  const ctx = { services: { settings }, signal: AbortSignal.timeout(5_000) } as unknown as ToolContext;
  return fetchPageTool.run({ url }, ctx).then(
    () => "fetched",
    (err: unknown) => (err instanceof ToolRefusal ? err.message : "fetched"),
  );
}

const rules = (over: Partial<Parameters<typeof hostRefusal>[1]> = {}) => ({
  dnsUrl,
  denied: [],
  signal: AbortSignal.timeout(5_000),
  ...over,
});

describe("fetch_page and the names it is given", () => {
  it.each([
    "127.0.0.1.nip.io",
    "169.254.169.254.nip.io",
    "localtest.me",
    "LOCALTEST.ME.",
    "mixed.example",
    "alias.example",
  ])("refuses %s, which resolves to a private address, before asking for the page", async (host) => {
    expect(await fetchPage(`https://${host}/latest/meta-data/`)).toBe(
      "the page's name resolves to a private address: refused",
    );
  });

  it("refuses a name that does not resolve, or when the resolver does not answer", async () => {
    expect(await fetchPage("https://nowhere.example/")).toBe("the page's name does not resolve");
    expect(await fetchPage("https://example.com/", { FETCH_DNS_URL: "http://127.0.0.1:9/dns-query" })).toBe(
      "the page's name could not be checked (the resolver did not answer)",
    );
  });

  it("lets a name with only public addresses through, asking for both A and AAAA", async () => {
    asked.length = 0;
    expect(await hostRefusal("example.com", rules())).toBeNull();
    expect(asked.sort()).toEqual(["example.com 1", "example.com 28"]);
  });

  it("keeps to FETCH_DENIED_HOSTS and FETCH_ALLOWED_HOSTS, each entry with the names under it", async () => {
    expect(await fetchPage("https://www.example.com/", { FETCH_DENIED_HOSTS: "foo.test, *.example.com" })).toBe(
      "this site is refused by the bot's settings",
    );
    expect(await fetchPage("https://example.org/", { FETCH_ALLOWED_HOSTS: "example.com" })).toBe(
      "only the sites the bot's settings allow are fetched",
    );
    expect(await hostRefusal("docs.example.com", rules({ allowed: ["example.com"] }))).toBe(
      "the page's name does not resolve",
    );
    // An allowed name is still resolved and checked: the list narrows, never widens.
    expect(await hostRefusal("localtest.me", rules({ allowed: ["localtest.me"] }))).toBe(
      "the page's name resolves to a private address: refused",
    );
  });

  it("turns off fetch_page alone when a host list is malformed, and says which", async () => {
    const env = { FETCH_ALLOWED_HOSTS: "https://example.com/docs" };
    expect(parseSettings({ ...MINIMAL_SETTINGS, ...env }).ignored).toEqual([
      expect.objectContaining({ name: "FETCH_ALLOWED_HOSTS", problem: expect.stringContaining("host name") }),
    ]);
    expect(await fetchPage("https://example.com/", env)).toBe(
      "fetch_page is off: the bot's FETCH_ALLOWED_HOSTS setting is malformed",
    );
    expect(await fetchPage("https://example.com/", { FETCH_DENIED_HOSTS: "a b" })).toBe(
      "fetch_page is off: the bot's FETCH_DENIED_HOSTS setting is malformed",
    );
  });

  it("reads public and private addresses of both families", () => {
    for (const a of ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "2001:4860:4860::8888"])
      expect(isPublicAddress(a)).toBe(true);
    const inner = ["10.1.2.3", "172.31.0.1", "192.168.1.1", "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255"];
    for (const a of [...inner, "::", "::1", "fe80::1", "fc00::1", "fd12::1", "::ffff:127.0.0.1", "64:ff9b::a00:1"])
      expect(isPublicAddress(a)).toBe(false);
    for (const a of ["2001:db8::1", "2002:7f00:1::1", "2001::1", "not an address", "1.2.3"])
      expect(isPublicAddress(a)).toBe(false);
  });
});
