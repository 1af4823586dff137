/**
 * @module
 * QStash's `Upstash-Signature`: an HS256 JWT keyed by the signing key string, over the claims the Receiver checks
 * (issuer Upstash, subject = the destination URL, body = base64url SHA-256 of the body), valid five minutes.
 */
import { bytesToBase64url, textToBase64url } from "../../lib/base64.ts";
import { hmac } from "../../lib/crypto.ts";
import { type Body, bodyBytes, nowSeconds } from "./body.ts";

const ISSUER = "Upstash";
const LIFETIME_SECONDS = 5 * 60;

const jsonPart = (value: unknown) => textToBase64url(JSON.stringify(value));

/** The JWT for a delivery of `body` to `url`, issued at `issuedAt` (Unix seconds, default now). */
export async function qstashSignature(
  signingKey: string,
  url: string,
  body: Body,
  issuedAt = nowSeconds(),
): Promise<string> {
  const bodyHash = bytesToBase64url(new Uint8Array(await crypto.subtle.digest("SHA-256", bodyBytes(body))));
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
  return `${unsigned}.${bytesToBase64url(await hmac("SHA-256", signingKey, unsigned))}`;
}
