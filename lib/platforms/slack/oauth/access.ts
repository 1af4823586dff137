/**
 * @module
 * Slack's oauth.v2.access: the code of an approved install exchanged for a bot token, and a rotating token
 * refreshed (`grant_type=refresh_token`; the used refresh token is revoked by Slack). Client credentials go by
 * HTTP Basic, as Slack's docs prefer. Tokens never go into an error or a log line.
 */

import type * as Slack from "@slack/web-api";
import { basicAuthorization } from "../../../base64.ts";
import { GiveUp } from "../../../errors.ts";
import type { Installation, RefreshedToken } from "../../../installation.ts";
import * as z from "../../../zod.ts";
import { callSlack, type SlackAgrees, type SlackDisagreements, SlackError, type SlackMethods } from "../api.ts";

export interface OAuthClient {
  apiBaseUrl: string;
  clientId: string;
  clientSecret: string;
  fetch?: typeof fetch;
}

const named = z.nullish(z.object({ id: z.string().check(z.minLength(1)), name: z.optional(z.string()) }));

const accessSchema = z.looseObject({
  access_token: z.string().check(z.minLength(1)),
  token_type: z.literal("bot"),
  scope: z._default(z.string(), ""),
  /** Optional, as in Slack's own SDK: a refresh's answer may leave it out (only the exchange needs it). */
  bot_user_id: z.optional(z.string().check(z.minLength(1))),
  app_id: z.optional(z.string()),
  team: named,
  enterprise: named,
  is_enterprise_install: z._default(z.boolean(), false),
  authed_user: z.optional(z.looseObject({ id: z.optional(z.string()) })),
  refresh_token: z.optional(z.string().check(z.minLength(1))),
  expires_in: z.optional(z.number().check(z.positive())),
});

// biome-ignore lint/correctness/noUnusedVariables: a compile-time check against the SDK's type
type AccessAgrees = SlackAgrees<SlackDisagreements<z.output<typeof accessSchema>, Slack.OauthV2AccessResponse>>;

/** Errors after which the same refresh token can never work: the installation must be made again. */
const DEAD_REFRESH = new Set(["invalid_refresh_token", "invalid_grant_type", "invalid_client_id", "bad_client_secret"]);

async function access(
  client: OAuthClient,
  params: SlackMethods["oauth.v2.access"],
): Promise<z.output<typeof accessSchema>> {
  const body = await callSlack(
    {
      apiBaseUrl: client.apiBaseUrl,
      authorization: basicAuthorization(client.clientId, client.clientSecret),
      ...(client.fetch ? { fetch: client.fetch } : {}),
    },
    "oauth.v2.access",
    params,
    "form",
  );
  const parsed = accessSchema.safeParse(body);
  if (!parsed.success) throw new Error("Slack oauth.v2.access answered without a bot token");
  return parsed.data;
}

/**
 * The installation an approved install's `code` stands for. Its tenant is the workspace (`E…:T…` inside an org,
 * as events name it), or the org for an org-wide install.
 */
export async function exchangeCode(
  client: OAuthClient,
  code: string,
  redirectUri: string,
  now: number,
): Promise<Installation> {
  const a = await access(client, { code, redirect_uri: redirectUri });
  const enterprise = a.enterprise?.id;
  const team = a.team?.id;
  const tenant = a.is_enterprise_install || !team ? enterprise : enterprise ? `${enterprise}:${team}` : team;
  if (!tenant) throw new Error("Slack oauth.v2.access named neither a team nor an enterprise");
  if (!a.bot_user_id) throw new Error("Slack oauth.v2.access answered an install without the bot's user id");
  const teamName = a.is_enterprise_install ? a.enterprise?.name : a.team?.name;
  return {
    tenant,
    botToken: a.access_token,
    botUserId: a.bot_user_id,
    installId: crypto.randomUUID(),
    ...(a.app_id ? { appId: a.app_id } : {}),
    ...(teamName ? { teamName } : {}),
    scopes: a.scope.split(",").filter(Boolean),
    ...(a.authed_user?.id ? { installerUserId: a.authed_user.id } : {}),
    installedAt: now,
    ...(a.refresh_token && a.expires_in ? { refreshToken: a.refresh_token, expiresAt: now + a.expires_in * 1000 } : {}),
  };
}

export async function refreshBotToken(client: OAuthClient, refreshToken: string, now: number): Promise<RefreshedToken> {
  try {
    const a = await access(client, { grant_type: "refresh_token", refresh_token: refreshToken });
    if (!a.refresh_token || !a.expires_in) throw new Error("Slack refreshed a token without a refresh token or expiry");
    return { botToken: a.access_token, refreshToken: a.refresh_token, expiresAt: now + a.expires_in * 1000 };
  } catch (err) {
    if ((err instanceof SlackError || err instanceof GiveUp) && DEAD_REFRESH.has(err.code)) {
      throw new GiveUp("the installation's refresh token no longer works: install the app again", "refresh_revoked");
    }
    throw err;
  }
}
