/**
 * @module
 * The bearer token a platform sends with each delivery (`Authorization: Bearer <JWT>`: the Bot Connector, Google
 * Chat), verified before anything of the body is read: a compact JWS (RFC 7515 §7.1) signed RS256 with one of the
 * platform's published keys (lib/platforms/jwt-keys.ts), from an accepted issuer, for an accepted audience, within
 * its `exp` and `nbf` give or take the clock skew both platforms' libraries allow (five minutes: botbuilder-js's
 * ChannelValidation `clockTolerance`, google-auth-library's `clockSkew`), and whatever the platform checks beyond
 * (the Bot Connector's `serviceurl` claim and its key's endorsement, Google's `email` claim) through `check`.
 *
 * Only RS256 is accepted, whatever the header says (RFC 8725 §3.1: never let the token choose its algorithm; no
 * `none`, no HMAC with a public key as secret). A token names its key by `kid`; none that does not.
 */
import { base64urlToBytes } from "../base64.ts";
import { type SigningKey, type SigningKeys, SigningKeysUnavailable } from "./jwt-keys.ts";

const CLOCK_SKEW_SECONDS = 300;
/** Far above any platform's token (the Bot Connector's are about 1.3 KB): refused before any work is done. */
const MAX_TOKEN_LENGTH = 16_384;
const BEARER = /^Bearer +([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+) *$/i;

type JwtClaims = Readonly<Record<string, unknown>>;

interface VerifiedJwt {
  claims: JwtClaims;
  /** The key that signed it, with its endorsements. */
  key: SigningKey;
}

type BearerJwtRejection =
  | "missing_token"
  | "malformed"
  | "unsupported_algorithm"
  | "unknown_key"
  | "bad_signature"
  | "wrong_issuer"
  | "wrong_audience"
  | "expired"
  | "not_yet_valid";

/**
 * A rejection is answered 401, but `keys_unavailable` (the keys could not be fetched) 503, so that the platform
 * delivers again; a `check` may add reasons of its own.
 */
export type BearerJwtResult =
  | { ok: true; token: VerifiedJwt }
  | { ok: false; reason: BearerJwtRejection | "keys_unavailable" | (string & {}) };

export interface BearerJwtOptions {
  keys: SigningKeys;
  /** Accepted `iss` values, compared exactly. */
  issuers: readonly string[];
  /** Accepted `aud` values: the token's `aud` (a string or an array) must hold one of them. */
  audiences: readonly string[];
  clockSkewSeconds?: number;
  /** Milliseconds since the epoch. */
  now?: () => number;
  /** The platform's own checks on a token whose signature and standard claims hold: a rejection reason, or none. */
  check?: (token: VerifiedJwt) => string | undefined;
}

const decoder = new TextDecoder();

function jsonPart(part: string): Record<string, unknown> | undefined {
  const bytes = base64urlToBytes(part);
  if (!bytes) return undefined;
  try {
    const value: unknown = JSON.parse(decoder.decode(bytes));
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The token of an `Authorization: Bearer <token>` header; undefined when there is none of that shape. */
function bearerToken(authorization: string | null | undefined): string | undefined {
  if (!authorization || authorization.length > MAX_TOKEN_LENGTH) return undefined;
  return BEARER.exec(authorization)?.[1];
}

/** Verifies the token of an `Authorization: Bearer` header: no header is `missing_token`, another shape `malformed`. */
export async function verifyBearerJwt(
  authorization: string | null | undefined,
  options: BearerJwtOptions,
): Promise<BearerJwtResult> {
  const token = bearerToken(authorization);
  if (!token) return { ok: false, reason: authorization ? "malformed" : "missing_token" };
  return verifyJwt(token, options);
}

/** Verifies one compact JWS. */
export async function verifyJwt(token: string, options: BearerJwtOptions): Promise<BearerJwtResult> {
  const [headerPart = "", payloadPart = "", signaturePart = ""] = token.split(".");
  const header = jsonPart(headerPart);
  const claims = jsonPart(payloadPart);
  const signature = base64urlToBytes(signaturePart);
  if (!header || !claims || !signature || token.split(".").length !== 3) return { ok: false, reason: "malformed" };
  if (header.alg !== "RS256") return { ok: false, reason: "unsupported_algorithm" };
  if (typeof header.kid !== "string" || !header.kid) return { ok: false, reason: "unknown_key" };

  let key: SigningKey | undefined;
  try {
    key = await options.keys.find(header.kid);
  } catch (err) {
    if (err instanceof SigningKeysUnavailable) return { ok: false, reason: "keys_unavailable" };
    throw err;
  }
  if (!key) return { ok: false, reason: "unknown_key" };
  const signed = new TextEncoder().encode(`${headerPart}.${payloadPart}`);
  if (!(await crypto.subtle.verify("RSASSA-PKCS1-v1_5", key.key, signature, signed)))
    return { ok: false, reason: "bad_signature" };

  const claimsReason = standardClaimsReason(claims, options);
  if (claimsReason) return { ok: false, reason: claimsReason };
  const verified = { claims, key };
  const extra = options.check?.(verified);
  return extra ? { ok: false, reason: extra } : { ok: true, token: verified };
}

function standardClaimsReason(claims: JwtClaims, options: BearerJwtOptions): BearerJwtRejection | undefined {
  if (typeof claims.iss !== "string" || !options.issuers.includes(claims.iss)) return "wrong_issuer";
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.some((aud) => typeof aud === "string" && options.audiences.includes(aud))) return "wrong_audience";
  const nowSeconds = (options.now ?? Date.now)() / 1000;
  const skew = options.clockSkewSeconds ?? CLOCK_SKEW_SECONDS;
  // A token without an expiry would be good forever: refused (RFC 7519 makes `exp` optional; these platforms set it).
  if (typeof claims.exp !== "number" || nowSeconds > claims.exp + skew) return "expired";
  if (claims.nbf !== undefined && (typeof claims.nbf !== "number" || nowSeconds < claims.nbf - skew))
    return "not_yet_valid";
  return undefined;
}
