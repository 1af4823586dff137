/**
 * @module
 * The workspaces (teams) the Slack fake knows and the tokens it issued: a default team whose static tokens work
 * without an install (what single-workspace setups use), teams installed through OAuth with their own bot token,
 * rotating tokens that expire, refresh tokens that are revoked once used, and uninstalls that revoke everything.
 * A token the fake never issued is `invalid_auth`, so a tenant mix-up cannot go unnoticed.
 */
import { randomBytes } from "node:crypto";
import { defaultGrant } from "./methods.ts";

/** The app every install is of, and the bot of the default team. */
export const SLACK_FAKE_APP_ID = "A0FAKEAPP";
export const SLACK_FAKE_DEFAULT_TEAM = {
  id: "T0FAKETEAM",
  name: "Fake Workspace",
  botUserId: "U0FAKEBOT",
  botId: "B0FAKEBOT",
};
/**
 * The static bot tokens of the repository's configurations (tests, `.dev.vars.example`, benches), all the default
 * team's.
 */
export const SLACK_FAKE_STATIC_TOKENS: readonly string[] = [
  "xoxb-test-bot-token",
  "xoxb-local-bot-token",
  "xoxb-test-token",
  "xoxb-bench",
];

export interface SlackTeam {
  id: string;
  name: string;
  enterpriseId?: string;
  enterpriseName?: string;
  isEnterpriseInstall: boolean;
  botUserId: string;
  botId: string;
  /** The person who approved the install. */
  installerUserId: string;
  scope: string;
  installed: boolean;
}

export interface IssuedToken {
  token: string;
  teamId: string;
  /** Epoch ms; absent for tokens that never expire. */
  expiresAt?: number;
  revoked: boolean;
}

export type Authentication =
  | { team: SlackTeam; token: IssuedToken }
  | { error: "not_authed" | "invalid_auth" | "token_expired" | "token_revoked" };

export interface TeamInstall {
  teamId: string;
  teamName?: string;
  enterpriseId?: string;
  enterpriseName?: string;
  isEnterpriseInstall?: boolean;
  installerUserId?: string;
  scope?: string;
}

export class Workspaces {
  #teams = new Map<string, SlackTeam>();
  #tokens = new Map<string, IssuedToken>();
  /** Refresh token → team; a used one is deleted (Slack revokes it). */
  #refreshTokens = new Map<string, string>();
  #staticTokens: Set<string>;
  /** `team|channel` of the channels the bot was removed from (it is in every other one it is asked about). */
  #left = new Set<string>();

  constructor(staticTokens: readonly string[]) {
    this.#staticTokens = new Set(staticTokens);
    this.reset(staticTokens);
  }

  reset(staticTokens: readonly string[]): void {
    this.#teams.clear();
    this.#tokens.clear();
    this.#refreshTokens.clear();
    this.#left.clear();
    this.#staticTokens = new Set(staticTokens);
    const { id, name, botUserId, botId } = SLACK_FAKE_DEFAULT_TEAM;
    this.#teams.set(id, {
      id,
      name,
      botUserId,
      botId,
      isEnterpriseInstall: false,
      installerUserId: "U0FAKEOWNER",
      scope: defaultGrant(),
      installed: true,
    });
  }

  setStaticTokens(tokens: readonly string[]): void {
    this.#staticTokens = new Set(tokens);
  }

  staticTokens(): string[] {
    return [...this.#staticTokens];
  }

  authenticate(token: string | undefined, now = Date.now()): Authentication {
    if (!token) return { error: "not_authed" };
    if (this.#staticTokens.has(token)) {
      const team = this.#teams.get(SLACK_FAKE_DEFAULT_TEAM.id)!;
      return team.installed ? { team, token: { token, teamId: team.id, revoked: false } } : { error: "token_revoked" };
    }
    const issued = this.#tokens.get(token);
    if (!issued) return { error: "invalid_auth" };
    if (issued.revoked) return { error: "token_revoked" };
    if (issued.expiresAt !== undefined && now >= issued.expiresAt) return { error: "token_expired" };
    return { team: this.#teams.get(issued.teamId)!, token: issued };
  }

  team(id: string): SlackTeam | undefined {
    return this.#teams.get(id);
  }

  teams(): SlackTeam[] {
    return [...this.#teams.values()];
  }

  /** Adds the team (or marks it installed again), as the person's approval in Slack's install screen does. */
  install(spec: TeamInstall): SlackTeam {
    const known = this.#teams.get(spec.teamId);
    const suffix = spec.teamId.replace(/^T/, "");
    const team: SlackTeam = {
      id: spec.teamId,
      name: spec.teamName ?? known?.name ?? `Workspace ${spec.teamId}`,
      ...(spec.enterpriseId
        ? { enterpriseId: spec.enterpriseId, enterpriseName: spec.enterpriseName ?? `Enterprise ${spec.enterpriseId}` }
        : {}),
      isEnterpriseInstall: spec.isEnterpriseInstall ?? false,
      botUserId: known?.botUserId ?? `UBOT${suffix}`,
      botId: known?.botId ?? `BBOT${suffix}`,
      installerUserId: spec.installerUserId ?? known?.installerUserId ?? "U0INSTALLER",
      scope: spec.scope ?? defaultGrant(),
      installed: true,
    };
    this.#teams.set(team.id, team);
    return team;
  }

  /** A new bot token for the team; with `expiresInSeconds` a rotating one (`xoxe.xoxb-1-…`) and its refresh token. */
  issue(
    teamId: string,
    expiresInSeconds: number | undefined,
    now = Date.now(),
  ): { token: IssuedToken; refreshToken?: string } {
    const secret = randomBytes(12).toString("hex");
    const token: IssuedToken =
      expiresInSeconds === undefined
        ? { token: `xoxb-${teamId}-${secret}`, teamId, revoked: false }
        : {
            token: `xoxe.xoxb-1-${teamId}-${secret}`,
            teamId,
            revoked: false,
            expiresAt: now + expiresInSeconds * 1000,
          };
    this.#tokens.set(token.token, token);
    if (expiresInSeconds === undefined) return { token };
    const refreshToken = `xoxe-1-${teamId}-${randomBytes(12).toString("hex")}`;
    this.#refreshTokens.set(refreshToken, teamId);
    return { token, refreshToken };
  }

  /** The team of a live refresh token, which is revoked by this use; undefined for an unknown or used one. */
  redeemRefreshToken(refreshToken: string): SlackTeam | undefined {
    const teamId = this.#refreshTokens.get(refreshToken);
    if (!teamId) return undefined;
    this.#refreshTokens.delete(refreshToken);
    const team = this.#teams.get(teamId);
    return team?.installed ? team : undefined;
  }

  /** The bot joins (`member`) or is removed from a channel of the team. */
  setMember(teamId: string, channel: string, member: boolean): void {
    if (member) this.#left.delete(`${teamId}|${channel}`);
    else this.#left.add(`${teamId}|${channel}`);
  }

  /**
   * Slack's answer to a bot acting in a channel it is not in: `not_in_channel` for a public one, `channel_not_found`
   * for a private one (it cannot see it); undefined when it is a member.
   */
  notMember(teamId: string, channel: string): "not_in_channel" | "channel_not_found" | undefined {
    if (!this.#left.has(`${teamId}|${channel}`)) return undefined;
    return channel.startsWith("C") ? "not_in_channel" : "channel_not_found";
  }

  /** Revokes every token of the team, as uninstalling the app does. */
  uninstall(teamId: string): boolean {
    const team = this.#teams.get(teamId);
    if (!team) return false;
    team.installed = false;
    for (const token of this.#tokens.values()) if (token.teamId === teamId) token.revoked = true;
    for (const [refresh, owner] of this.#refreshTokens) if (owner === teamId) this.#refreshTokens.delete(refresh);
    return true;
  }
}
