/**
 * @module
 * Discord interaction signatures: Ed25519 over `timestamp + rawBody` with the application's public key, through
 * WebCrypto (edge-safe). Run it on the raw body, before parsing anything: Discord probes with bad signatures and
 * removes the interactions URL of an endpoint that accepts one.
 */

export const DISCORD_SIGNATURE_HEADER = "X-Signature-Ed25519";
export const DISCORD_TIMESTAMP_HEADER = "X-Signature-Timestamp";
/** An Ed25519 signature is 64 bytes, a raw public key 32 bytes; Discord sends both as hex. */
const SIGNATURE_HEX_LENGTH = 128;
const PUBLIC_KEY_HEX_LENGTH = 64;
const HEX = /^[0-9a-f]*$/i;

const encoder = new TextEncoder();
/** Importing a key costs more than verifying with it; an isolate serves many requests with the same key. */
const importedKeys = new Map<string, Promise<CryptoKey>>();

export type DiscordVerifyResult = { ok: true } | { ok: false; reason: "missing_headers" | "malformed" | "bad_signature" };

export async function verifyDiscordRequest(args: {
  publicKey: string;
  signature: string | null;
  timestamp: string | null;
  rawBody: string;
}): Promise<DiscordVerifyResult> {
  const { publicKey, signature, timestamp, rawBody } = args;
  if (!signature || !timestamp) return { ok: false, reason: "missing_headers" };
  if (signature.length !== SIGNATURE_HEX_LENGTH || !HEX.test(signature)) return { ok: false, reason: "malformed" };
  const key = await publicKeyFor(publicKey);
  const valid = await crypto.subtle.verify("Ed25519", key, hexToBytes(signature), encoder.encode(timestamp + rawBody));
  return valid ? { ok: true } : { ok: false, reason: "bad_signature" };
}

function publicKeyFor(hex: string): Promise<CryptoKey> {
  let key = importedKeys.get(hex);
  if (!key) {
    if (hex.length !== PUBLIC_KEY_HEX_LENGTH || !HEX.test(hex)) {
      throw new Error("DISCORD_PUBLIC_KEY must be the 64 hex characters shown in the Discord developer portal");
    }
    key = crypto.subtle.importKey("raw", hexToBytes(hex), { name: "Ed25519" }, false, ["verify"]);
    // A failed import must not be cached: the next request retries it.
    key.catch(() => importedKeys.delete(hex));
    importedKeys.set(hex, key);
  }
  return key;
}

function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}
