/**
 * @module
 * Installing into the Slack fake: a code for an approved install (by the control route, or by the authorize page a
 * browser is sent to), oauth.v2.access with and without token rotation, auth.test per token, and tokens that work
 * only for the team they were issued to.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SLACK_FAKE_OAUTH_CLIENT } from "../../dev/fakes/slack.ts";
import { startSlack, type SlackHarness } from "./slack-client.ts";

let slack: SlackHarness;
beforeAll(async () => {
  slack = await startSlack();
});
afterAll(() => slack.close());
beforeEach(() => slack.control("/__reset", {}));

const REDIRECT = "https://bot.example/slack/oauth/callback";
const CLIENT = { client_id: SLACK_FAKE_OAUTH_CLIENT.clientId, client_secret: SLACK_FAKE_OAUTH_CLIENT.clientSecret };
const approve = (team: string, name: string) =>
  slack.control<{ code: string }>("/__install", { team_id: team, team_name: name, redirect_uri: REDIRECT });
const exchange = (params: Record<string, unknown>) => slack.call("oauth.v2.access", params, { token: "", form: true });

describe("oauth.v2.access", () => {
  it("exchanges an approved install's code once, with the client credentials by HTTP Basic", async () => {
    const { code } = await approve("T0ACME001", "Acme");
    const basic = `${CLIENT.client_id}:${CLIENT.client_secret}`;
    const installed = await slack.call(
      "oauth.v2.access",
      { code, redirect_uri: REDIRECT },
      { token: "", form: true, basic },
    );
    expect(installed.body).toMatchObject({
      ok: true,
      token_type: "bot",
      bot_user_id: "UBOT0ACME001",
      team: { id: "T0ACME001", name: "Acme" },
      enterprise: null,
      is_enterprise_install: false,
    });
    expect(installed.body.refresh_token).toBeUndefined();
    expect(
      (await slack.call("oauth.v2.access", { code, redirect_uri: REDIRECT }, { token: "", form: true, basic })).body
        .error,
    ).toBe("invalid_code");
  });

  it("refuses a wrong secret, client id, redirect URL or grant type", async () => {
    const { code } = await approve("T0ACME001", "Acme");
    expect((await exchange({ ...CLIENT, code, redirect_uri: REDIRECT, client_secret: "nope" })).body.error).toBe(
      "bad_client_secret",
    );
    expect((await exchange({ ...CLIENT, code, redirect_uri: REDIRECT, client_id: "0.0" })).body.error).toBe(
      "invalid_client_id",
    );
    expect((await exchange({ ...CLIENT, code, redirect_uri: "https://evil.example/cb" })).body.error).toBe(
      "bad_redirect_uri",
    );
    expect((await exchange({ ...CLIENT, code, grant_type: "password" })).body.error).toBe("invalid_grant_type");
  });

  it("with rotation, issues expiring tokens and refreshes each refresh token only once", async () => {
    await slack.control("/__config", { oauth: { tokenRotation: true, expiresIn: 43_200 } });
    const { code } = await approve("T0ACME001", "Acme");
    const installed = (await exchange({ ...CLIENT, code, redirect_uri: REDIRECT })).body;
    expect(installed).toMatchObject({ ok: true, expires_in: 43_200 });
    expect(installed.access_token).toMatch(/^xoxe\.xoxb-1-/);
    const refreshed = (
      await exchange({ ...CLIENT, grant_type: "refresh_token", refresh_token: installed.refresh_token })
    ).body;
    expect(refreshed).toMatchObject({ ok: true, token_type: "bot", expires_in: 43_200, team: { id: "T0ACME001" } });
    expect(refreshed.refresh_token).not.toBe(installed.refresh_token);
    expect(
      (await exchange({ ...CLIENT, grant_type: "refresh_token", refresh_token: installed.refresh_token })).body.error,
    ).toBe("invalid_refresh_token");
    expect((await slack.control<{ oauth: { refreshes: number } }>("/__stats")).oauth.refreshes).toBe(2);
  });

  it("refuses an expired rotating token with token_expired", async () => {
    await slack.control("/__config", { oauth: { tokenRotation: true, expiresIn: 1 } });
    const { code } = await approve("T0ACME001", "Acme");
    const token = (await exchange({ ...CLIENT, code, redirect_uri: REDIRECT })).body.access_token as string;
    expect((await slack.call("auth.test", {}, { token })).body.ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await slack.call("auth.test", {}, { token })).body.error).toBe("token_expired");
  });
});

describe("the authorize page", () => {
  const authorize = (query: Record<string, string>) =>
    fetch(
      `${slack.url.replace(/\/api$/, "")}/oauth/v2/authorize?${new URLSearchParams({ scope: "chat:write", state: "s1", redirect_uri: REDIRECT, ...query })}`,
      { redirect: "manual" },
    );

  it("approves for the team the link names and sends the browser back with a code for that team and the state", async () => {
    const res = await authorize({ client_id: CLIENT.client_id, team: "T0GLOBEX1", team_name: "Globex" });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get("Location")!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get("state")).toBe("s1");
    const installed = (await exchange({ ...CLIENT, code: back.searchParams.get("code")!, redirect_uri: REDIRECT }))
      .body;
    expect(installed).toMatchObject({
      ok: true,
      team: { id: "T0GLOBEX1", name: "Globex" },
      bot_user_id: "UBOT0GLOBEX1",
      scope: "chat:write",
    });
  });

  it("asks for a team when the link names none, and sends no code for another app's client id", async () => {
    const form = await authorize({ client_id: CLIENT.client_id });
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('name="team"');
    const other = await authorize({ client_id: "0.0", team: "T0GLOBEX1" });
    expect(other.status).toBe(400);
    expect(other.headers.get("Location")).toBeNull();
    expect(await other.text()).toContain("invalid_client_id");
  });
});

describe("tokens and teams", () => {
  it("tells each token's team and bot, and records every post with the team of its token", async () => {
    const acme = (
      await exchange({ ...CLIENT, code: (await approve("T0ACME001", "Acme")).code, redirect_uri: REDIRECT })
    ).body.access_token as string;
    const globex = (
      await exchange({ ...CLIENT, code: (await approve("T0GLOBEX1", "Globex")).code, redirect_uri: REDIRECT })
    ).body.access_token as string;
    expect((await slack.call("auth.test", {}, { token: acme })).body).toMatchObject({
      ok: true,
      team_id: "T0ACME001",
      team: "Acme",
      user_id: "UBOT0ACME001",
      bot_id: "BBOT0ACME001",
    });
    expect((await slack.call("auth.test", {})).body).toMatchObject({
      ok: true,
      team_id: "T0FAKETEAM",
      user_id: "U0FAKEBOT",
    });
    await slack.call("chat.postMessage", { channel: "C0SAME001", text: "to Acme" }, { token: acme });
    await slack.call("chat.postMessage", { channel: "C0SAME001", text: "to Globex" }, { token: globex });
    const posts = await slack.control<{ text: string; team: string }[]>("/__calls?channel=C0SAME001");
    expect(posts.map((p) => [p.team, p.text])).toEqual([
      ["T0ACME001", "to Acme"],
      ["T0GLOBEX1", "to Globex"],
    ]);
    const acmeHistory = (await slack.call("conversations.history", { channel: "C0SAME001" }, { token: acme })).body
      .messages as { text: string }[];
    expect(acmeHistory.map((m) => m.text)).toEqual(["to Acme"]);
  });

  it("refuses a token it never issued, and revokes a team's tokens on uninstall", async () => {
    expect(
      (await slack.call("chat.postMessage", { channel: "C0CHAN001", text: "x" }, { token: "xoxb-made-up" })).body.error,
    ).toBe("invalid_auth");
    expect((await slack.call("chat.postMessage", { channel: "C0CHAN001", text: "x" }, { token: "" })).body.error).toBe(
      "not_authed",
    );
    const token = (
      await exchange({ ...CLIENT, code: (await approve("T0ACME001", "Acme")).code, redirect_uri: REDIRECT })
    ).body.access_token as string;
    await slack.control("/__uninstall", { team_id: "T0ACME001" });
    expect((await slack.call("auth.test", {}, { token })).body.error).toBe("token_revoked");
  });
});
