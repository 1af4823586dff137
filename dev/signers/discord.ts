/**
 * @module
 * Discord's interaction signature: Ed25519 over `timestamp + body`, sent as hex. Discord publishes no test vector,
 * so tests and the benches make a key pair; the simulator holds the private half of the local-only pair in
 * .dev.vars.example. WebCrypto only (Node 22 and workerd both have Ed25519).
 */
import { bytesToHex } from "../../lib/crypto.ts";
import { nowSeconds, prefixed, type Body } from "./body.ts";

export interface DiscordSigningKeys {
  /** 64 hex characters, as the developer portal shows it (DISCORD_PUBLIC_KEY). */
  publicKeyHex: string;
  privateKey: CryptoKey;
}

export async function generateDiscordKeys(): Promise<DiscordSigningKeys> {
  const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const publicKey = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  return { publicKeyHex: bytesToHex(publicKey), privateKey: pair.privateKey };
}

/** A private key given as the hex of its PKCS#8 DER encoding. */
export function importDiscordPrivateKey(pkcs8Hex: string): Promise<CryptoKey> {
  const der = Uint8Array.from(pkcs8Hex.match(/../g) ?? [], (byte) => parseInt(byte, 16));
  return crypto.subtle.importKey("pkcs8", der, { name: "Ed25519" }, false, ["sign"]);
}

export async function discordSignature(privateKey: CryptoKey, timestamp: string, body: Body): Promise<string> {
  return bytesToHex(new Uint8Array(await crypto.subtle.sign("Ed25519", privateKey, prefixed(timestamp, body))));
}

/** The two headers of a signed interaction; `timestamp` (Unix seconds) defaults to now. */
export async function discordHeaders(
  privateKey: CryptoKey,
  body: Body,
  timestamp: number | string = nowSeconds(),
): Promise<Record<string, string>> {
  const ts = String(timestamp);
  return { "X-Signature-Ed25519": await discordSignature(privateKey, ts, body), "X-Signature-Timestamp": ts };
}
