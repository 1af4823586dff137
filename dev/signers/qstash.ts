/**
 * @module
 * QStash's `Upstash-Signature`: an HS256 JWT keyed by the signing key string, over the claims the Receiver checks
 * (issuer Upstash, subject = the destination URL, body = base64url SHA-256 of the body), valid five minutes.
 */
import { hmac } from "../../lib/crypto.ts";
import { bodyBytes, nowSeconds, type Body } from "./body.ts";

const ISSUER = "Upstash";
const LIFETIME_SECONDS = 5 * 60;

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const jsonPart = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value)));

/** The JWT for a delivery of `body` to `url`, issued at `issuedAt` (Unix seconds, default now). */
export async function qstashSignature(
  signingKey: string,
  url: string,
  body: Body,
  issuedAt = nowSeconds(),
): Promise<string> {
  const bodyHash = base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", bodyBytes(body))));
  const claims = {
    iss: ISSUER,
    sub: url,
    exp: issuedAt + LIFETIME_SECONDS,
    nbf: issuedAt,
    iat: issuedAt,
    jti: `jwt_${crypto.randomUUID()}`,
    body: bodyHash,
  };
  const unsigned = `${jsonPart({ alg: "HS256", typ: "JWT" })}.${jsonPart(claims)}`;
  return `${unsigned}.${base64url(await hmac("SHA-256", signingKey, unsigned))}`;
}
