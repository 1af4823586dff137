import { describe, expect, it } from "vitest";
import {
  base64ToBytes,
  base64ToText,
  base64urlToBytes,
  basicAuthorization,
  bytesToBase64,
  bytesToBase64url,
  textToBase64url,
} from "../../lib/base64.ts";

/** Node's own codec is the reference: every length mod 3, every byte value. */
const samples = [0, 1, 2, 3, 4, 5, 255, 256, 257].map((n) => Uint8Array.from({ length: n }, (_, i) => (i * 37) % 256));

describe("base64", () => {
  it("writes what Node's Buffer writes, standard and url-safe, and reads it back", () => {
    for (const bytes of samples) {
      const buffer = Buffer.from(bytes);
      expect(bytesToBase64(bytes)).toBe(buffer.toString("base64"));
      expect(bytesToBase64url(bytes)).toBe(buffer.toString("base64url"));
      expect(base64ToBytes(buffer.toString("base64"))).toEqual(bytes);
      expect(base64urlToBytes(buffer.toString("base64url"))).toEqual(bytes);
    }
  });

  it("takes a file of megabytes in one call (a data URL's picture)", () => {
    const big = new Uint8Array(3 * 1024 * 1024).fill(7);
    expect(bytesToBase64(big)).toBe(Buffer.from(big).toString("base64"));
  });

  it("refuses what is not base64 rather than guessing", () => {
    for (const text of ["!!!not base64!!!", "abc-", "a", "ab c", "=abc"]) expect(base64ToBytes(text)).toBeNull();
    for (const text of ["ab+c", "ab/c", "ab=", "a"]) expect(base64urlToBytes(text)).toBeNull();
    expect(base64ToText("%%")).toBeNull();
  });

  it("carries UTF-8 text, and HTTP Basic credentials as RFC 7617 writes them", () => {
    expect(base64ToText(Buffer.from("héllo ✓").toString("base64"))).toBe("héllo ✓");
    expect(textToBase64url('{"alg":"HS256"}')).toBe(Buffer.from('{"alg":"HS256"}').toString("base64url"));
    // RFC 7617 §2's example.
    expect(basicAuthorization("Aladdin", "open sesame")).toBe("Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==");
  });
});
