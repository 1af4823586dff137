/**
 * @module
 * Signs raw request bytes the way each sender does (Slack v0 HMAC, Twilio HMAC-SHA1 over URL + sorted params,
 * Discord Ed25519, QStash HS256 JWT), so the hostile corpus can send correct, wrong-key, stale and mismatched
 * signatures over bodies that are not even valid text.
 */
import { signInteraction, type SigningKeys as DiscordKeys } from "./discord.ts";
import { twilioSignature } from "./twilio.ts";

const encoder = new TextEncoder();

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function hmac(hash: "SHA-256" | "SHA-1", secret: string, data: Uint8Array): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, data));
}

const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const toBase64Url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const jsonBase64Url = (value: unknown) => toBase64Url(encoder.encode(JSON.stringify(value)));

export async function slackSignature(secret: string, timestamp: string, body: Uint8Array): Promise<string> {
  return `v0=${toHex(await hmac("SHA-256", secret, concat(encoder.encode(`v0:${timestamp}:`), body)))}`;
}

/** Twilio signs the form as its parameters, so the bytes are read back the way the Worker reads them. */
export async function twilioBodySignature(token: string, url: string, body: Uint8Array): Promise<string> {
  const params = [...new URLSearchParams(new TextDecoder().decode(body))] as [string, string][];
  return twilioSignature(token, url, params);
}

export async function discordSignature(keys: DiscordKeys, timestamp: string, body: Uint8Array): Promise<string> {
  // signInteraction takes text; the Worker verifies over the decoded text, so sign what it will see.
  return signInteraction(keys, timestamp, new TextDecoder().decode(body));
}

/** An `Upstash-Signature` JWT for `url` over `body`, issued `issuedAt` (unix seconds), valid 5 minutes. */
export async function qstashSignature(signingKey: string, url: string, body: Uint8Array, issuedAt = Math.floor(Date.now() / 1000)): Promise<string> {
  const header = jsonBase64Url({ alg: "HS256", typ: "JWT" });
  const bodyHash = toBase64Url(new Uint8Array(await crypto.subtle.digest("SHA-256", body)));
  const claims = jsonBase64Url({ iss: "Upstash", sub: url, exp: issuedAt + 300, nbf: issuedAt, iat: issuedAt, jti: crypto.randomUUID(), body: bodyHash });
  const mac = await hmac("SHA-256", signingKey, encoder.encode(`${header}.${claims}`));
  return `${header}.${claims}.${toBase64Url(mac)}`;
}
