/**
 * @module
 * `/parley` from the simulator's Slack tab: the form Slack posts to `/slack/commands` for a slash command, signed
 * like its events, in the workspace in view; the Worker's ephemeral answer is what only the person who typed it
 * sees. Alice is an admin of every workspace of the page (the Slack fake's `POST /__roles`), so she may change a
 * channel's settings; Bob and Carol may only read them.
 */
import { slackHeaders } from "../signers/slack.ts";
import { PEOPLE, SLACK_CHANNEL, type SimulatedPerson, type SlackWorkspace } from "./people.ts";

/** The page's admin: the first person. */
const ADMIN = PEOPLE[0]!;

export function isSlashCommand(text: string): boolean {
  return /^\/parley(?:\s|$)/u.test(text.trim());
}

/** Makes the page's admin a workspace admin of each workspace in the Slack fake. */
export async function makeSimulatorAdmin(slackFakeUrl: string, workspaces: readonly SlackWorkspace[]): Promise<void> {
  for (const { team } of workspaces) {
    const res = await fetch(`${slackFakeUrl}/__roles`, {
      method: "POST",
      body: JSON.stringify({ team, admins: [ADMIN.slackUserId] }),
    });
    if (!res.ok) throw new Error(`the Slack fake answered ${res.status} to the page's admin`);
  }
}

/** Sends `text` (`/parley …`) as `person`'s slash command; resolves with the Worker's ephemeral answer. */
export async function sendSlackSlash(
  opts: { workerUrl: string; signingSecret: string },
  workspace: SlackWorkspace,
  person: SimulatedPerson,
  text: string,
): Promise<string> {
  const [command = "/parley", ...words] = text.trim().split(/\s+/u);
  const body = new URLSearchParams({
    team_id: workspace.team,
    team_domain: workspace.name.toLowerCase(),
    channel_id: SLACK_CHANNEL,
    channel_name: "general",
    user_id: person.slackUserId,
    user_name: person.name.toLowerCase(),
    command,
    text: words.join(" "),
    api_app_id: "A0FAKEAPP",
    is_enterprise_install: "false",
    response_url: `${opts.workerUrl}/no-response-url`,
    trigger_id: `${Date.now()}.1.sim`,
  }).toString();
  const res = await fetch(`${opts.workerUrl}/slack/commands`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(await slackHeaders(opts.signingSecret, body)) },
    body,
  });
  const answer = (await res.json().catch(() => ({}))) as { text?: string; error?: string };
  return answer.text ?? `the Worker answered ${res.status}${answer.error ? `: ${answer.error}` : ""}`;
}
