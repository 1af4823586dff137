/**
 * @module
 * Slack's OAuth v2 as the fake plays it: a test "approves" an install (`POST /__install`, as the person would in
 * Slack's install screen) and gets the authorization code the callback would carry; oauth.v2.access exchanges it
 * (client credentials by HTTP Basic or form fields, `redirect_uri` checked, single-use codes that expire after
 * ten minutes) for a bot token, rotating or not, and refreshes rotating tokens (the used refresh token is revoked);
 * auth.test tells a token's team and bot.
 */
import { randomBytes } from "node:crypto";
import { refusal, type MethodContext, type SlackAnswer } from "./context.ts";
import { textParam, type SlackRequest } from "./request.ts";
import type { SlackSettings } from "./settings.ts";
import { SLACK_FAKE_APP_ID, type SlackTeam, type TeamInstall, type Workspaces } from "./workspaces.ts";

/** Slack's codes are valid for ten minutes. */
const CODE_LIFETIME_MS = 10 * 60_000;

export interface OAuthCounts {
  exchanges: number;
  refreshes: number;
  refused: number;
}

interface PendingCode {
  install: TeamInstall;
  redirectUri?: string;
  expiresAt: number;
}

export class OAuthServer {
  #codes = new Map<string, PendingCode>();
  #counts: OAuthCounts = { exchanges: 0, refreshes: 0, refused: 0 };
  readonly #workspaces: Workspaces;

  constructor(workspaces: Workspaces) {
    this.#workspaces = workspaces;
  }

  /** The code Slack would send to the redirect URL after the person approved the install. */
  approveInstall(install: TeamInstall, redirectUri: string | undefined, now = Date.now()): string {
    const code = `${Date.now().toString(36)}.${randomBytes(16).toString("hex")}`;
    this.#codes.set(code, { install, ...(redirectUri ? { redirectUri } : {}), expiresAt: now + CODE_LIFETIME_MS });
    return code;
  }

  counts(): OAuthCounts {
    return { ...this.#counts };
  }

  reset(): void {
    this.#codes.clear();
    this.#counts = { exchanges: 0, refreshes: 0, refused: 0 };
  }

  /** oauth.v2.access: `grant_type` `authorization_code` (the default) or `refresh_token`. */
  access(request: SlackRequest, settings: SlackSettings["oauth"], now = Date.now()): SlackAnswer {
    const answer = this.#access(request, settings, now);
    if (!answer.ok) this.#counts.refused += 1;
    return answer;
  }

  #access({ params, basic }: SlackRequest, settings: SlackSettings["oauth"], now: number): SlackAnswer {
    const clientId = basic?.user ?? textParam(params, "client_id");
    const clientSecret = basic?.password ?? textParam(params, "client_secret");
    if (!clientId || clientId !== settings.clientId) return refusal("invalid_client_id");
    if (clientSecret !== settings.clientSecret) return refusal("bad_client_secret");
    const grantType = textParam(params, "grant_type") ?? "authorization_code";
    if (grantType === "refresh_token") return this.#refresh(textParam(params, "refresh_token"), settings, now);
    if (grantType !== "authorization_code") return refusal("invalid_grant_type");

    const code = textParam(params, "code") ?? "";
    const pending = this.#codes.get(code);
    if (!pending || now >= pending.expiresAt) return refusal("invalid_code");
    if (pending.redirectUri !== undefined && textParam(params, "redirect_uri") !== pending.redirectUri)
      return refusal("bad_redirect_uri");
    this.#codes.delete(code);
    const team = this.#workspaces.install(pending.install);
    const { token, refreshToken } = this.#workspaces.issue(
      team.id,
      settings.tokenRotation ? settings.expiresIn : undefined,
      now,
    );
    this.#counts.exchanges += 1;
    return {
      ok: true,
      app_id: SLACK_FAKE_APP_ID,
      authed_user: { id: team.installerUserId },
      scope: team.scope,
      token_type: "bot",
      access_token: token.token,
      bot_user_id: team.botUserId,
      ...(refreshToken ? { refresh_token: refreshToken, expires_in: settings.expiresIn } : {}),
      ...identity(team),
    };
  }

  #refresh(refreshToken: string | undefined, settings: SlackSettings["oauth"], now: number): SlackAnswer {
    this.#counts.refreshes += 1;
    const team = refreshToken ? this.#workspaces.redeemRefreshToken(refreshToken) : undefined;
    if (!team) return refusal("invalid_refresh_token");
    const issued = this.#workspaces.issue(team.id, settings.expiresIn, now);
    return {
      ok: true,
      app_id: SLACK_FAKE_APP_ID,
      access_token: issued.token.token,
      expires_in: settings.expiresIn,
      refresh_token: issued.refreshToken,
      token_type: "bot",
      scope: team.scope,
      // bot_user_id is optional in Slack's answers (its SDK reads only the token, refresh token and expiry): a
      // refresh here leaves it out, so nothing may depend on it.
      ...identity(team),
    };
  }
}

/** `team` is null for an org-wide install, as in Slack's answers. */
function identity(team: SlackTeam): Record<string, unknown> {
  return {
    team: team.isEnterpriseInstall ? null : { id: team.id, name: team.name },
    enterprise: team.enterpriseId ? { id: team.enterpriseId, name: team.enterpriseName } : null,
    is_enterprise_install: team.isEnterpriseInstall,
  };
}

export function authTest({ team, token, now, state }: MethodContext): SlackAnswer {
  const issued = state.workspaces.authenticate(token, now);
  const expiresAt = "token" in issued ? issued.token.expiresAt : undefined;
  return {
    ok: true,
    url: workspaceUrl(team),
    team: team.name,
    user: "parley",
    team_id: team.id,
    user_id: team.botUserId,
    bot_id: team.botId,
    app_id: SLACK_FAKE_APP_ID,
    is_enterprise_install: team.isEnterpriseInstall,
    ...(team.enterpriseId ? { enterprise_id: team.enterpriseId } : {}),
    ...(expiresAt !== undefined ? { expires_in: Math.max(0, Math.floor((expiresAt - now) / 1000)) } : {}),
  };
}

/**
 * The workspace's URL as auth.test gives it: its name as a Slack domain (`Fake Workspace` → fake-workspace.slack.com).
 */
function workspaceUrl(team: Pick<SlackTeam, "id" | "name">): string {
  const domain = team.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return `https://${domain || team.id.toLowerCase()}.slack.com/`;
}
