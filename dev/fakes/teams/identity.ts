/**
 * @module
 * The Microsoft identity platform's token endpoint for a bot, as strict as Microsoft's ("Microsoft identity platform
 * and the OAuth 2.0 client credentials flow"; "Authentication with the Bot Connector API"): `POST
 * /{tenant}/oauth2/v2.0/token` with `grant_type=client_credentials`, the registered app's `client_id` and
 * `client_secret`, and `scope=https://api.botframework.com/.default`, the tenant `botframework.com` for a
 * multi-tenant bot or the bot's own for a single-tenant one. Anything else is refused with Microsoft's error
 * (`unsupported_grant_type`, `invalid_client` AADSTS7000215, `unauthorized_client` AADSTS700016, `invalid_scope`
 * AADSTS1002012) and no token. A granted token lasts an hour; the Connector side (./connector.ts) refuses any other.
 */
import { randomBytes } from "node:crypto";

const BOT_CONNECTOR_SCOPE = "https://api.botframework.com/.default";
const MULTI_TENANT = "botframework.com";
const TOKEN_LIFETIME_SECONDS = 3_599;
const TOKEN_PATH = /^\/([^/]+)\/oauth2\/v2\.0\/token$/;

export interface TokenAnswer {
  status: number;
  body: Record<string, unknown>;
}

export interface BotApp {
  appId: string;
  password: string;
  /** A single-tenant bot's tenant; undefined for a multi-tenant bot. */
  tenantId: string | undefined;
}

const refusal = (status: number, error: string, description: string): TokenAnswer => ({
  status,
  body: { error, error_description: description, error_codes: [Number(/AADSTS(\d+)/.exec(description)?.[1] ?? 0)] },
});

export function isTokenPath(pathname: string): boolean {
  return TOKEN_PATH.test(pathname);
}

export class IdentityPlatform {
  #grants = new Map<string, { appId: string; expiresAt: number; usedFor: Set<string> }>();
  /** Token exchanges made (a job makes one an hour per isolate). */
  exchanges = 0;

  exchange(app: BotApp, pathname: string, form: URLSearchParams, now = Date.now()): TokenAnswer {
    const tenant = TOKEN_PATH.exec(pathname)?.[1] ?? "";
    if (form.get("grant_type") !== "client_credentials")
      return refusal(400, "unsupported_grant_type", "AADSTS70003: The app requested an unsupported grant type.");
    if (form.get("client_id") !== app.appId || tenant !== (app.tenantId ?? MULTI_TENANT))
      return refusal(
        400,
        "unauthorized_client",
        `AADSTS700016: Application with identifier '${form.get("client_id") ?? ""}' was not found in the directory '${tenant}'.`,
      );
    if (form.get("client_secret") !== app.password)
      return refusal(401, "invalid_client", "AADSTS7000215: Invalid client secret provided.");
    if (form.get("scope") !== BOT_CONNECTOR_SCOPE)
      return refusal(400, "invalid_scope", "AADSTS1002012: The provided value for scope is not valid.");
    const token = `eyJ0eXAiOiJKV1QifQ.fake-${randomBytes(24).toString("base64url")}`;
    this.#grants.set(token, { appId: app.appId, expiresAt: now + TOKEN_LIFETIME_SECONDS * 1000, usedFor: new Set() });
    this.exchanges++;
    return {
      status: 200,
      body: {
        token_type: "Bearer",
        expires_in: TOKEN_LIFETIME_SECONDS,
        ext_expires_in: TOKEN_LIFETIME_SECONDS,
        access_token: token,
      },
    };
  }

  /**
   * True when `Authorization: Bearer <token>` holds a token this endpoint granted that has not expired; the token is
   * noted as used for `chat`.
   */
  authorized(authorization: string | undefined, chat: string, now = Date.now()): boolean {
    const token = /^Bearer (\S+)$/.exec(authorization ?? "")?.[1];
    const grant = token ? this.#grants.get(token) : undefined;
    if (!grant || grant.expiresAt <= now) return false;
    grant.usedFor.add(chat);
    return true;
  }

  /** Takes back the life of every token used for `chat` (a test of a token revoked early), and no other's. */
  expireUsedFor(chat: string): number {
    let expired = 0;
    for (const grant of this.#grants.values())
      if (grant.usedFor.has(chat)) {
        grant.expiresAt = 0;
        expired++;
      }
    return expired;
  }

  reset(): void {
    this.#grants.clear();
    this.exchanges = 0;
  }
}
