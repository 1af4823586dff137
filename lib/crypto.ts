/**
 * @module
 * Edge-safe crypto helpers shared by every platform's signature check: HMAC through WebCrypto and constant-time
 * comparison. No Node imports: this runs in the Worker.
 */
import { bytesToBase64 } from "./base64.ts";

export type HmacAlgorithm = "SHA-256" | "SHA-1";

const encoder = new TextEncoder();

/** HMAC of `message` (UTF-8 text, or bytes as they are) keyed by `secret` (UTF-8), as raw bytes. */
export async function hmac(
  algorithm: HmacAlgorithm,
  secret: string,
  message: string | Uint8Array<ArrayBuffer>,
): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: algorithm }, false, [
    "sign",
  ]);
  return new Uint8Array(
    await crypto.subtle.sign("HMAC", key, typeof message === "string" ? encoder.encode(message) : message),
  );
}

/** HMAC as lowercase hex (Slack's `v0=` signatures). */
export async function hmacHex(algorithm: HmacAlgorithm, secret: string, message: string): Promise<string> {
  return bytesToHex(await hmac(algorithm, secret, message));
}

/** HMAC as standard base64 (Twilio's `X-Twilio-Signature`). */
export async function hmacBase64(algorithm: HmacAlgorithm, secret: string, message: string): Promise<string> {
  return bytesToBase64(await hmac(algorithm, secret, message));
}

/** SHA-256 of `text` (UTF-8) as lowercase hex. */
export async function sha256Hex(text: string): Promise<string> {
  return bytesToHex(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text))));
}

export function bytesToHex(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/**
 * True when both byte arrays are equal. The running time depends only on the lengths, never on where the first
 * difference is, so an attacker cannot learn a signature byte by byte from response times.
 */
function constantTimeEqualBytes(a: Uint8Array, b: Uint8Array): boolean {
  // Compare against `a` itself when lengths differ so the loop still runs its full length.
  const other = a.length === b.length ? b : a;
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ other[i]!;
  return diff === 0;
}

/** Constant-time equality of two strings, compared as their UTF-8 bytes. */
export function constantTimeEqual(a: string, b: string): boolean {
  return constantTimeEqualBytes(encoder.encode(a), encoder.encode(b));
}
