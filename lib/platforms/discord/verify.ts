/**
 * @module
 * Discord interaction signatures: Ed25519 over `timestamp + rawBody` with the application's public key, checked by
 * Discord's own `discord-interactions` (`verifyKey`, WebCrypto: edge-safe). Run it on the raw body, before parsing
 * anything: Discord probes with bad signatures and removes the interactions URL of an endpoint that accepts one.
 * Before the library's call, a format check tells a malformed header from a wrong signature (the library answers
 * `false` for both), and a timestamp more than 5 minutes off, either way, is refused: a captured request cannot be
 * replayed once the hour-long seen mark of its interaction is gone.
 */
import { verifyKey } from "discord-interactions";

export const DISCORD_SIGNATURE_HEADER = "X-Signature-Ed25519";
export const DISCORD_TIMESTAMP_HEADER = "X-Signature-Timestamp";
/** Slack's documented window, applied to Discord's timestamp (Unix seconds) too; Discord documents none. */
export const DISCORD_MAX_CLOCK_SKEW_SECONDS = 300;
/** An Ed25519 signature is 64 bytes, a raw public key 32 bytes; Discord sends both as hex. */
const SIGNATURE_HEX_LENGTH = 128;
const PUBLIC_KEY_HEX_LENGTH = 64;
const HEX = /^[0-9a-f]*$/i;
/** Unix seconds, digits only: `1e9` or ` 12` would change what the signed string means. */
const TIMESTAMP = /^\d{1,12}$/;

/** Importing a key costs more than verifying with it; an isolate serves many requests with the same key. */
const importedKeys = new Map<string, Promise<CryptoKey>>();

export type DiscordVerifyResult =
  | { ok: true }
  | { ok: false; reason: "missing_headers" | "malformed" | "stale_timestamp" | "bad_signature" };

export async function verifyDiscordRequest(args: {
  publicKey: string;
  signature: string | null;
  timestamp: string | null;
  rawBody: string;
  nowSeconds: number;
}): Promise<DiscordVerifyResult> {
  const { publicKey, signature, timestamp, rawBody, nowSeconds } = args;
  if (!signature || !timestamp) return { ok: false, reason: "missing_headers" };
  if (signature.length !== SIGNATURE_HEX_LENGTH || !HEX.test(signature) || !TIMESTAMP.test(timestamp))
    return { ok: false, reason: "malformed" };
  if (Math.abs(nowSeconds - Number(timestamp)) > DISCORD_MAX_CLOCK_SKEW_SECONDS)
    return { ok: false, reason: "stale_timestamp" };
  const valid = await verifyKey(rawBody, signature, timestamp, await publicKeyFor(publicKey));
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
