/**
 * @module
 * Each Slack kind and mode of bench/latency answers in a workspace of its own, installed through the Worker's real
 * install routes and the Slack fake (as test/support/slack-install.ts does in tests): Slack counts its rate tiers
 * per workspace, so a workspace then sees one kind's waves of conversations, not the whole run's answers at once.
 */
import { SLACK_FAKE_OAUTH_CLIENT } from "../../dev/fakes/slack.ts";

/** The settings that make the app installable, each workspace with its own bot token. */
export const INSTALLABLE = {
  SLACK_CLIENT_ID: SLACK_FAKE_OAUTH_CLIENT.clientId,
  SLACK_CLIENT_SECRET: SLACK_FAKE_OAUTH_CLIENT.clientSecret,
  SLACK_BOT_TOKEN: "",
};

/**
 * Installs `teamId` through the Worker at `workerUrl` (its installs are in the Redis all the bench's Workers share).
 */
export async function installWorkspace(workerUrl: string, slackControl: string, teamId: string): Promise<void> {
  const start = await fetch(`${workerUrl}/slack/install`, { redirect: "manual" });
  await start.body?.cancel();
  const location = start.headers.get("Location");
  const cookie = start.headers.get("Set-Cookie")?.split(";")[0];
  if (start.status !== 302 || !location || !cookie) throw new Error(`/slack/install answered ${start.status}`);
  const authorize = new URL(location);
  const approved = await fetch(`${slackControl}/__install`, {
    method: "POST",
    body: JSON.stringify({
      team_id: teamId,
      team_name: teamId,
      redirect_uri: authorize.searchParams.get("redirect_uri"),
    }),
  });
  if (!approved.ok) throw new Error(`the Slack fake refused the install of ${teamId}: ${approved.status}`);
  const { code } = (await approved.json()) as { code: string };
  const query = new URLSearchParams({ code, state: authorize.searchParams.get("state") ?? "" });
  const done = await fetch(`${workerUrl}/slack/oauth/callback?${query.toString()}`, { headers: { Cookie: cookie } });
  await done.body?.cancel();
  if (done.status !== 200) throw new Error(`the install of ${teamId} ended with ${done.status}`);
}
