/**
 * @module
 * Installing the app into Slack workspaces through the Worker's real install routes and the Slack fake: the
 * person opens /slack/install, approves in "Slack" (the fake's /__install), and their browser follows the
 * redirect to /slack/oauth/callback with the code, the state and the install cookie.
 */
import { SLACK_FAKE_OAUTH_CLIENT } from "../../dev/fakes/slack.ts";
import { callWorker, SLACK_API_BASE_URL, type TestEnv } from "./worker.ts";

export const SLACK_FAKE_ORIGIN = SLACK_API_BASE_URL.replace(/\/api$/, "");

/** The settings that make the app installable (and no single-workspace token). */
export const INSTALLABLE = {
  SLACK_CLIENT_ID: SLACK_FAKE_OAUTH_CLIENT.clientId,
  SLACK_CLIENT_SECRET: SLACK_FAKE_OAUTH_CLIENT.clientSecret,
  SLACK_BOT_TOKEN: "",
};

export interface InstallStart {
  state: string;
  cookie: string;
  redirectUri: string;
}

let browsers = 0;

/**
 * GET /slack/install: the state Slack's authorize URL carries, and the cookie the browser got. Each install comes
 * from a browser of its own (a client address of its own: the route caps the starts of one client).
 */
export async function startInstall(env: TestEnv): Promise<InstallStart> {
  browsers += 1;
  const address = `198.18.${(browsers >> 8) & 0xff}.${browsers & 0xff}`;
  const res = await callWorker(
    env,
    new Request("https://bot.test/slack/install", { headers: { "CF-Connecting-IP": address } }),
  );
  if (res.status !== 302) throw new Error(`/slack/install answered ${res.status}`);
  const location = new URL(res.headers.get("Location")!);
  const cookie = res.headers.get("Set-Cookie")!.split(";")[0]!;
  return {
    state: location.searchParams.get("state")!,
    cookie,
    redirectUri: location.searchParams.get("redirect_uri")!,
  };
}

/** A workspace, or with `orgWide` a Slack org (`id` its `E…`) installed in all its workspaces at once. */
export interface InstallTarget {
  id: string;
  name: string;
  orgWide?: boolean;
  /** The bot scopes the workspace grants (comma-separated); the manifest's when absent. */
  scope?: string;
}

/** The person approves the install in Slack: the code the redirect carries. */
export async function approveInstall(team: InstallTarget, redirectUri: string): Promise<string> {
  const spec = team.orgWide
    ? { enterprise_id: team.id, enterprise_name: team.name, is_enterprise_install: true }
    : { team_id: team.id, team_name: team.name };
  const res = await fetch(`${SLACK_FAKE_ORIGIN}/__install`, {
    method: "POST",
    body: JSON.stringify({ ...spec, ...(team.scope ? { scope: team.scope } : {}), redirect_uri: redirectUri }),
  });
  if (!res.ok) throw new Error(`the Slack fake refused the install: ${res.status}`);
  return ((await res.json()) as { code: string }).code;
}

/** The browser follows Slack's redirect to the callback. */
export function callback(env: TestEnv, query: Record<string, string>, cookie?: string): Promise<Response> {
  const url = `https://bot.test/slack/oauth/callback?${new URLSearchParams(query).toString()}`;
  return callWorker(env, new Request(url, { headers: cookie ? { Cookie: cookie } : {} }));
}

/** The whole install of one workspace; throws unless the success page came back. */
export async function installWorkspace(env: TestEnv, team: InstallTarget): Promise<void> {
  const start = await startInstall(env);
  const code = await approveInstall(team, start.redirectUri);
  const res = await callback(env, { code, state: start.state }, start.cookie);
  if (res.status !== 200) throw new Error(`the install of ${team.id} ended with ${res.status}: ${await res.text()}`);
  await res.body?.cancel();
}

export async function slackFake<T>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(
    `${SLACK_FAKE_ORIGIN}${path}`,
    body === undefined ? {} : { method: "POST", body: JSON.stringify(body) },
  );
  return (await res.json()) as T;
}

/** The posts the fake recorded in `channel`, with the team of the token each was made with. */
export function teamPosts(channel: string): Promise<{ team: string; text: string }[]> {
  return slackFake(`/__calls?channel=${encodeURIComponent(channel)}`);
}
