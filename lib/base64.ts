/**
 * @module
 * Base64, written once: bytes to standard base64 (keys in settings, HMACs, data URLs) and base64url without padding
 * (JWTs, sealed values, state tokens), and back. Decoding refuses anything that is not base64 rather than guessing,
 * so a mistyped key is a configuration error. Edge-safe (btoa and atob, no Buffer): the Worker and Node alike.
 */

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;
/** String.fromCharCode over megabytes of arguments at once would overflow the stack: a file goes in pieces. */
const PIECE = 0x8000;

const encoder = new TextEncoder();

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let at = 0; at < bytes.length; at += PIECE) binary += String.fromCharCode(...bytes.subarray(at, at + PIECE));
  return btoa(binary);
}

/** The bytes of standard base64 text; null when it is not base64. */
export function base64ToBytes(text: string): Uint8Array<ArrayBuffer> | null {
  if (!BASE64.test(text) || text.length % 4 === 1) return null;
  try {
    return Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

export function bytesToBase64url(bytes: Uint8Array): string {
  return bytesToBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The bytes of base64url text without padding; null when it is not base64url. */
export function base64urlToBytes(text: string): Uint8Array<ArrayBuffer> | null {
  if (!BASE64URL.test(text)) return null;
  const standard = text.replace(/-/g, "+").replace(/_/g, "/");
  return base64ToBytes(standard.padEnd(Math.ceil(standard.length / 4) * 4, "="));
}

/** UTF-8 text as base64url (a JWT's header and claims). */
export function textToBase64url(text: string): string {
  return bytesToBase64url(encoder.encode(text));
}

/**
 * The UTF-8 text standard base64 holds; null when it is not base64. Invalid UTF-8 becomes U+FFFD, as TextDecoder does.
 */
export function base64ToText(text: string): string | null {
  const bytes = base64ToBytes(text);
  return bytes && new TextDecoder().decode(bytes);
}

/** HTTP Basic credentials (RFC 7617): `Basic base64(user:password)`, UTF-8. */
export function basicAuthorization(user: string, password: string): string {
  return `Basic ${bytesToBase64(encoder.encode(`${user}:${password}`))}`;
}
