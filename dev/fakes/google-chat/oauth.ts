/**
 * @module
 * Google's token endpoint for service accounts, as strict as Google's ("Using OAuth 2.0 for Server to Server
 * Applications"): `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer` and an `assertion` signed RS256 with a
 * registered account's private key, `iss` that account, `aud` this endpoint, `iat` now and `exp` at most an hour
 * on, `scope` scopes Google knows. Anything else is refused with Google's error (`invalid_grant`, `invalid_scope`,
 * `unsupported_grant_type`) and no token. A granted token (`ya29.…`, one hour) carries its scopes: the Chat API side
 * (./api.ts) refuses a call its scopes do not cover, and refuses a token this endpoint never granted.
 */
import { createPublicKey, createVerify, type KeyObject, randomBytes } from "node:crypto";
import { refusals, type GoogleApiError } from "./errors.ts";

const TOKEN_LIFETIME_SECONDS = 3_599;
const KNOWN_SCOPES: ReadonlySet<string> = new Set([
  "https://www.googleapis.com/auth/chat.bot",
  "https://www.googleapis.com/auth/chat.app.messages.readonly",
]);

export interface Grant {
  account: string;
  scopes: ReadonlySet<string>;
  expiresAt: number;
}

export interface TokenAnswer {
  status: number;
  body: Record<string, unknown>;
}

const oauthError = (error: string, description: string): TokenAnswer => ({
  status: 400,
  body: { error, error_description: description },
});

export class TokenEndpoint {
  #accounts = new Map<string, KeyObject>();
  #grants = new Map<string, Grant>();
  /** Token exchanges made (benches count one an hour per isolate). */
  exchanges = 0;

  readonly #url: () => string;
  constructor(url: () => string) {
    this.#url = url;
  }

  /** A service account whose JSON key may sign assertions (its private key's public half). */
  register(clientEmail: string, privateKeyPem: string): void {
    this.#accounts.set(clientEmail, createPublicKey(privateKeyPem));
  }

  exchange(form: URLSearchParams, now = Date.now()): TokenAnswer {
    if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer")
      return oauthError("unsupported_grant_type", "Invalid grant_type.");
    const [head = "", payload = "", signature = ""] = (form.get("assertion") ?? "").split(".");
    let claims: Record<string, unknown>;
    let header: Record<string, unknown>;
    try {
      header = JSON.parse(Buffer.from(head, "base64url").toString("utf8"));
      claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    } catch {
      return oauthError("invalid_grant", "Invalid JWT.");
    }
    const key = typeof claims.iss === "string" ? this.#accounts.get(claims.iss) : undefined;
    if (!key) return oauthError("invalid_grant", "Invalid grant: account not found");
    const verifies =
      header.alg === "RS256" &&
      createVerify("RSA-SHA256").update(`${head}.${payload}`).verify(key, Buffer.from(signature, "base64url"));
    if (!verifies) return oauthError("invalid_grant", "Invalid JWT Signature.");
    if (claims.aud !== this.#url()) return oauthError("invalid_grant", "Invalid JWT: Failed audience check.");
    const seconds = now / 1000;
    const { iat, exp } = claims;
    if (typeof iat !== "number" || typeof exp !== "number" || exp - iat > 3_600 || iat > seconds + 60 || exp < seconds)
      return oauthError(
        "invalid_grant",
        "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.",
      );
    const scopes = String(claims.scope ?? "")
      .split(" ")
      .filter(Boolean);
    if (scopes.length === 0 || scopes.some((s) => !KNOWN_SCOPES.has(s)))
      return oauthError("invalid_scope", "Invalid OAuth scope or ID token audience provided.");
    const token = `ya29.fake-${randomBytes(24).toString("base64url")}`;
    this.#grants.set(token, {
      account: claims.iss as string,
      scopes: new Set(scopes),
      expiresAt: now + TOKEN_LIFETIME_SECONDS * 1000,
    });
    this.exchanges++;
    return { status: 200, body: { access_token: token, expires_in: TOKEN_LIFETIME_SECONDS, token_type: "Bearer" } };
  }

  /** The grant behind `Authorization: Bearer <token>` if it covers `scope`, else Google's refusal. */
  authorize(authorization: string | undefined, scope: string, now = Date.now()): Grant | GoogleApiError {
    const token = /^Bearer (\S+)$/.exec(authorization ?? "")?.[1];
    const grant = token ? this.#grants.get(token) : undefined;
    if (!grant || grant.expiresAt <= now) return refusals.unauthenticated();
    return grant.scopes.has(scope) ? grant : refusals.insufficientScopes();
  }

  reset(): void {
    this.#grants.clear();
    this.exchanges = 0;
  }
}
