import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { twilioSignature, urlVariants, verifyTwilioSignature } from "../../lib/platforms/twilio/verify.ts";

// Twilio's documented example (platforms.md).
const TOKEN = "12345";
const URL = "https://mycompany.com/myapp.php?foo=1&bar=2";
const URL_443 = "https://mycompany.com:443/myapp.php?foo=1&bar=2";
const PARAMS: [string, string][] = [
  ["CallSid", "CA1234567890ABCDE"],
  ["Caller", "+14158675309"],
  ["Digits", "1234"],
  ["From", "+14158675309"],
  ["To", "+18005551212"],
];
const SIGNATURE = "RSOYDt4T1cUTdK1PDd93/VVr8B8=";
const SIGNATURE_443 = "kvajT1Ptam85bY51eRf/AJRuM3w=";

const verify = (overrides: Partial<Parameters<typeof verifyTwilioSignature>[0]> = {}) =>
  verifyTwilioSignature({ authToken: TOKEN, url: URL, params: PARAMS, signature: SIGNATURE, ...overrides });

describe("Twilio request signatures", () => {
  it("computes the documented signature, with and without :443 in the URL", async () => {
    expect(await twilioSignature(TOKEN, URL, PARAMS)).toBe(SIGNATURE);
    expect(await twilioSignature(TOKEN, URL_443, PARAMS)).toBe(SIGNATURE_443);
  });

  it("accepts the documented request whatever order the parameters arrive in", async () => {
    expect(await verify()).toBe(true);
    expect(await verify({ params: [...PARAMS].reverse() })).toBe(true);
    expect(await verify({ params: new URLSearchParams(PARAMS) })).toBe(true);
  });

  it("accepts a signature over the URL with the default port when ours has none, and the other way round", async () => {
    expect(await verify({ signature: SIGNATURE_443 })).toBe(true);
    expect(await verify({ url: URL_443 })).toBe(true);
    expect(await verify({ url: URL_443, signature: SIGNATURE_443 })).toBe(true);
  });

  it("refuses a changed parameter, an added parameter, a changed URL, a wrong token or no signature", async () => {
    expect(await verify({ params: PARAMS.map(([k, v]) => [k, k === "Digits" ? "1235" : v] as [string, string]) })).toBe(
      false,
    );
    expect(await verify({ params: [...PARAMS, ["Body", "hi"]] })).toBe(false);
    expect(await verify({ url: "https://mycompany.com/myapp.php?foo=1&bar=3" })).toBe(false);
    expect(await verify({ url: "http://mycompany.com/myapp.php?foo=1&bar=2" })).toBe(false);
    expect(await verify({ authToken: "12346" })).toBe(false);
    expect(await verify({ signature: null })).toBe(false);
    expect(await verify({ signature: "" })).toBe(false);
  });

  it("tries the URL without any port and with the default port, as Twilio's own library does", () => {
    expect(urlVariants("http://a.test/x")).toEqual(["http://a.test/x", "http://a.test:80/x"]);
    expect(urlVariants("http://a.test:80/x?y=1")).toEqual(["http://a.test:80/x?y=1", "http://a.test/x?y=1"]);
    expect(urlVariants("https://a.test:8443/x")).toEqual(["https://a.test:8443/x", "https://a.test/x"]);
  });
});

interface Vectors {
  token: string;
  params: Record<string, string>;
  vectors: { case: string; url: string; params?: [string, string][]; signature: string; valid: boolean }[];
  quoteCases: { token: string; pairs: { signedUrl: string; configuredUrl: string; valid: boolean }[] };
}
const VECTORS = JSON.parse(
  readFileSync(join(import.meta.dirname, "../fixtures/platforms/twilio/signature-vectors.json"), "utf8"),
) as Vectors;

describe("the signatures twilio-node's validateRequest accepts (its own test vectors)", () => {
  it.each(VECTORS.vectors.map((v) => [v.case, v] as const))("%s", async (_name, v) => {
    const params = v.params ?? Object.entries(VECTORS.params);
    expect(await verifyTwilioSignature({ authToken: VECTORS.token, url: v.url, params, signature: v.signature })).toBe(
      v.valid,
    );
  });

  it("accepts a URL whose query `URL` re-encodes (a quote), signed either way", async () => {
    const { token, pairs } = VECTORS.quoteCases;
    for (const pair of pairs) {
      const signature = await twilioSignature(token, pair.signedUrl, []);
      expect(
        await verifyTwilioSignature({ authToken: token, url: pair.configuredUrl, params: [], signature }),
        JSON.stringify(pair),
      ).toBe(pair.valid);
    }
  });
});
