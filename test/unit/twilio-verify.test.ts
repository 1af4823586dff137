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
    expect(await verify({ params: PARAMS.map(([k, v]) => [k, k === "Digits" ? "1235" : v] as [string, string]) })).toBe(false);
    expect(await verify({ params: [...PARAMS, ["Body", "hi"]] })).toBe(false);
    expect(await verify({ url: "https://mycompany.com/myapp.php?foo=1&bar=3" })).toBe(false);
    expect(await verify({ url: "http://mycompany.com/myapp.php?foo=1&bar=2" })).toBe(false);
    expect(await verify({ url: "https://mycompany.com:8443/myapp.php?foo=1&bar=2" })).toBe(false);
    expect(await verify({ authToken: "12346" })).toBe(false);
    expect(await verify({ signature: null })).toBe(false);
    expect(await verify({ signature: "" })).toBe(false);
  });

  it("toggles only the scheme's own default port", () => {
    expect(urlVariants("http://a.test/x")).toEqual(["http://a.test/x", "http://a.test:80/x"]);
    expect(urlVariants("http://a.test:80/x?y=1")).toEqual(["http://a.test:80/x?y=1", "http://a.test/x?y=1"]);
    expect(urlVariants("https://a.test:8443/x")).toEqual(["https://a.test:8443/x"]);
    expect(urlVariants("http://127.0.0.1:8787/twilio/sms")).toEqual(["http://127.0.0.1:8787/twilio/sms"]);
  });
});
