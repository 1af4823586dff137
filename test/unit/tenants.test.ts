import { describe, expect, it } from "vitest";
import { manifestBotScopes } from "../../dev/fakes/slack/methods.ts";
import { channelKeyPattern, isChannelKey, isTenantKey, tenantKeyPattern } from "../../lib/keys.ts";
import { refreshBotToken } from "../../lib/platforms/slack/oauth/access.ts";
import { authorizeUrl, SLACK_BOT_SCOPES } from "../../lib/platforms/slack/oauth/authorize.ts";
import { parseSlackEvent } from "../../lib/platforms/slack/parse.ts";

describe("the install link", () => {
  it("asks for the bot scopes of slack-app-manifest.yaml", () => {
    expect([...SLACK_BOT_SCOPES].sort()).toEqual(manifestBotScopes().sort());
    const url = new URL(
      authorizeUrl({
        apiBaseUrl: "https://slack.com/api",
        clientId: "1.2",
        state: "s",
        redirectUri: "https://bot.example/slack/oauth/callback",
      }),
    );
    expect(url.origin + url.pathname).toBe("https://slack.com/oauth/v2/authorize");
    expect(url.searchParams.get("scope")).toBe(SLACK_BOT_SCOPES.join(","));
  });
});

describe("a tenant's keys", () => {
  const where = { platform: "slack" as const, tenant: "T1" };
  it("are every key naming the tenant, and no other tenant's", () => {
    const mine = [
      "p:conv:slack|T1|C1|:state",
      "p:seen:slack|T1|C1:1.2",
      "p:limit:reply:slack|T1|U1:123",
      "p:install:slack|T1",
      "p:budget:told:slack|T1|2026-11-23",
    ];
    const others = [
      "p:conv:slack|T12|C1|:state",
      "p:install:slack|T12",
      "p:conv:discord|T1|C1|:state",
      "q:install:slack|T1",
      "p:conv:slack|E1:T1|C1|:log",
    ];
    for (const key of mine) expect(isTenantKey("p", where, key), key).toBe(true);
    for (const key of others) expect(isTenantKey("p", where, key), key).toBe(false);
    expect(tenantKeyPattern("p", where)).toBe("p:*:slack|T1*");
  });

  it("of an org-wide install include its workspaces'", () => {
    expect(isTenantKey("p", { platform: "slack", tenant: "E1" }, "p:conv:slack|E1:T1|C1|:log")).toBe(true);
  });
});

describe("a channel's keys", () => {
  const channel = { platform: "teams" as const, tenant: "T1", channel: "19:ab@thread.tacv2" };
  it("are every key naming the channel (its threads too), and no other channel's or the tenant's", () => {
    const mine = [
      "p:conv:teams|T1|19:ab@thread.tacv2|1700:state",
      "p:conv:teams|T1|19:ab@thread.tacv2|:log",
      "p:kept:teams|T1|19:ab@thread.tacv2",
      "p:settings:teams|T1|19:ab@thread.tacv2",
    ];
    const others = [
      "p:kept:teams|T1|19:ab@thread.tacv2x",
      "p:kept:teams|T2|19:ab@thread.tacv2",
      "p:facts:teams|T1|29:someone",
      "p:digests:teams|T1",
      "q:kept:teams|T1|19:ab@thread.tacv2",
    ];
    expect(mine.filter((key) => !isChannelKey("p", channel, key))).toEqual([]);
    expect(others.filter((key) => isChannelKey("p", channel, key))).toEqual([]);
    expect(channelKeyPattern("p", channel)).toBe("p:*:teams|T1|19:ab@thread.tacv2*");
  });
});

describe("uninstall events", () => {
  const envelope = (event: object, extra: object = {}) => ({
    type: "event_callback",
    team_id: "T1",
    api_app_id: "A1",
    event_id: "Ev1",
    event,
    ...extra,
  });
  it("app_uninstalled removes the workspace; tokens_revoked only when the bot's token went", () => {
    expect(parseSlackEvent(envelope({ type: "app_uninstalled" }), { botName: "P" })).toEqual({
      kind: "removed",
      tenants: ["T1"],
    });
    expect(parseSlackEvent(envelope({ type: "tokens_revoked", tokens: { bot: ["UBOT"] } }), { botName: "P" })).toEqual({
      kind: "removed",
      tenants: ["T1"],
    });
    expect(
      parseSlackEvent(envelope({ type: "tokens_revoked", tokens: { oauth: ["U1"] } }), { botName: "P" }),
    ).toMatchObject({ kind: "ignored" });
  });
  it("names the org for an org-wide install", () => {
    const auth = {
      authorizations: [
        { enterprise_id: "E1", team_id: null, user_id: "UBOT", is_bot: true, is_enterprise_install: true },
      ],
      enterprise_id: "E1",
    };
    expect(parseSlackEvent(envelope({ type: "app_uninstalled" }, auth), { botName: "P" })).toEqual({
      kind: "removed",
      tenants: ["E1"],
    });
  });
});

describe("refreshing a rotating token", () => {
  const client = (error: string) => ({
    apiBaseUrl: "https://slack.test/api",
    clientId: "1.2",
    clientSecret: "s",
    fetch: (async () => Response.json({ ok: false, error })) as typeof fetch,
  });
  it("works with an answer that leaves out bot_user_id (optional in Slack's own SDK)", async () => {
    const answer = {
      ok: true,
      access_token: "xoxe.xoxb-new",
      token_type: "bot",
      refresh_token: "xoxe-1-new",
      expires_in: 43_200,
      scope: "chat:write",
      team: { id: "T1" },
    };
    const client = {
      apiBaseUrl: "https://slack.test/api",
      clientId: "1.2",
      clientSecret: "s",
      fetch: (async () => Response.json(answer)) as typeof fetch,
    };
    expect(await refreshBotToken(client, "xoxe-1-old", 1_000)).toEqual({
      botToken: "xoxe.xoxb-new",
      refreshToken: "xoxe-1-new",
      expiresAt: 1_000 + 43_200_000,
    });
  });

  it("gives up when Slack no longer takes the refresh token, and lets a passing failure be retried", async () => {
    await expect(refreshBotToken(client("invalid_refresh_token"), "xoxe-1-old", 0)).rejects.toMatchObject({
      name: "GiveUp",
      code: "refresh_revoked",
    });
    await expect(refreshBotToken(client("internal_error"), "xoxe-1-old", 0)).rejects.toMatchObject({
      name: "SlackError",
      code: "internal_error",
    });
  });
});
