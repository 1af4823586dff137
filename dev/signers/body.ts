/**
 * @module
 * A request body as the signers take it: text (encoded as UTF-8, as a platform sends it) or raw bytes (the hostile
 * corpus signs bytes that are not even valid text).
 */

export type Body = string | Uint8Array;

const encoder = new TextEncoder();

export function bodyBytes(body: Body): Uint8Array<ArrayBuffer> {
  // A copy either way: WebCrypto takes only bytes backed by a plain ArrayBuffer.
  return new Uint8Array(typeof body === "string" ? encoder.encode(body) : body);
}

/** `prefix` as UTF-8 followed by the body's bytes: what HMAC and Ed25519 signatures are computed over. */
export function prefixed(prefix: string, body: Body): Uint8Array<ArrayBuffer> {
  const head = bodyBytes(prefix);
  const tail = bodyBytes(body);
  const out = new Uint8Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return out;
}

/** The current time in Unix seconds, as the platforms put it in their timestamp headers. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
