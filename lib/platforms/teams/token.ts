/**
 * @module
 * The bot's access token for the Bot Connector: the OAuth 2.0 client credentials grant at the Microsoft identity
 * platform ("Authentication with the Bot Connector API", bot to Connector): `POST {login}/{tenant}/oauth2/v2.0/token`
 * with `grant_type=client_credentials`, the app id and its secret, and `scope=https://api.botframework.com/.default`;
 * `{tenant}` is `botframework.com` for a multi-tenant bot and the bot's own tenant for a single-tenant one. Kept
 * within the isolate until five minutes before it expires, as botbuilder-js refreshes it (../kept-token.ts). A
 * refused secret is a GiveUp: no retry brings it back.
 */
import { GiveUp } from "../../errors.ts";
import * as z from "../../zod.ts";
import { type KeptToken, TokenKeeper } from "../kept-token.ts";
import { PlatformRateLimited } from "../rate-limited.ts";
import type { TeamsSettings } from "./settings.ts";

const BOT_CONNECTOR_SCOPE = "https://api.botframework.com/.default";
/** The tenant a multi-tenant bot's tokens come from. */
const MULTI_TENANT = "botframework.com";
const EXPIRY_MARGIN_MS = 5 * 60_000;
const TOKEN_TIMEOUT_MS = 10_000;

const tokenAnswerSchema = z.looseObject({
  access_token: z.string().check(z.minLength(1)),
  expires_in: z.number().check(z.positive()),
});

export interface TokenRequest {
  config: TeamsSettings;
  /** The app's client secret. */
  secret: string;
  fetch: typeof fetch;
  now(): number;
}

const tokens = new TokenKeeper(EXPIRY_MARGIN_MS);

function tokenUrlOf(config: TeamsSettings): string {
  return `${config.TEAMS_LOGIN_URL}/${config.TEAMS_TENANT_ID ?? MULTI_TENANT}/oauth2/v2.0/token`;
}

const cacheId = (request: Omit<TokenRequest, "fetch" | "now">) =>
  `${tokenUrlOf(request.config)}|${request.config.TEAMS_APP_ID}|${request.secret}`;

/** A bearer token for the Bot Connector, from the cache or a new exchange (one at a time, however many ask). */
export async function connectorToken(request: TokenRequest): Promise<string> {
  return tokens.token(cacheId(request), request.now(), () => exchangeSecret(request));
}

/** Forgets the token: the Connector refused it before its time, and the next call exchanges the secret anew. */
export function forgetConnectorToken(request: Omit<TokenRequest, "fetch" | "now">): void {
  tokens.forget(cacheId(request));
}

async function exchangeSecret(request: TokenRequest): Promise<KeptToken> {
  const appId = request.config.TEAMS_APP_ID;
  if (!appId) throw new GiveUp("TEAMS_APP_ID is not set", "not_configured");
  const response = await request.fetch(tokenUrlOf(request.config), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: appId,
      client_secret: request.secret,
      scope: BOT_CONNECTOR_SCOPE,
    }),
    signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
  });
  if (response.status === 429)
    throw new PlatformRateLimited("Teams token rate limited", Number(response.headers.get("Retry-After")) || 1);
  if (response.status === 400 || response.status === 401)
    throw new GiveUp(
      "the Microsoft identity platform refused TEAMS_APP_ID and TEAMS_APP_PASSWORD: check the secret " +
        "(Azure portal → the bot's app registration → Certificates & secrets) and TEAMS_TENANT_ID",
      "not_configured",
    );
  if (!response.ok) throw new Error(`the Teams token endpoint answered HTTP ${response.status}`);
  const answer = tokenAnswerSchema.parse(await response.json());
  return { token: answer.access_token, expiresAt: request.now() + answer.expires_in * 1000 };
}
