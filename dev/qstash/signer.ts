/**
 * @module
 * The `Upstash-Signature` JWT: HS256 with the signing key string as the secret, over the claims the QStash
 * Receiver checks (issuer, subject = destination URL, body hash).
 */
import { createHash, createHmac, randomUUID } from "node:crypto";

const ISSUER = "Upstash";
const LIFETIME_SECONDS = 5 * 60;
const JWT_HEADER = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));

export function signDelivery(signingKey: string, url: string, body: Buffer, now = Date.now()): string {
  const seconds = Math.floor(now / 1000);
  const claims = {
    iss: ISSUER,
    sub: url,
    exp: seconds + LIFETIME_SECONDS,
    nbf: seconds,
    iat: seconds,
    jti: `jwt_${randomUUID()}`,
    body: createHash("sha256").update(body).digest("base64url"),
  };
  const unsigned = `${JWT_HEADER}.${base64url(JSON.stringify(claims))}`;
  return `${unsigned}.${createHmac("sha256", signingKey).update(unsigned).digest("base64url")}`;
}

function base64url(text: string): string {
  return Buffer.from(text).toString("base64url");
}
