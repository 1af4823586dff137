/**
 * @module
 * Installs the app in the simulator's Slack workspaces the way a person does, through the Worker's real routes:
 * GET /slack/install (the state cookie and the redirect to Slack's authorize page), the Slack fake's authorize page
 * approving for the chosen workspace (its `team` parameter), then GET /slack/oauth/callback with the code, the state
 * and the cookie, where the Worker exchanges the code with oauth.v2.access and stores the workspace's own token.
 * Single-workspace mode (no SLACK_CLIENT_ID) has nothing to install: the page has the fake's default workspace.
 */
import { z } from "zod";
import { slackInstallable } from "../../lib/platforms/slack/settings.ts";
import { SLACK_FAKE_BOT } from "../fakes/slack.ts";
import { INSTALLED_WORKSPACES, type SlackWorkspace } from "./people.ts";

const fakeTeams = z.array(z.looseObject({ id: z.string(), botUserId: z.string() }));
const SINGLE_WORKSPACE: SlackWorkspace = {
  team: SLACK_FAKE_BOT.teamId,
  name: "Slack",
  botUserId: SLACK_FAKE_BOT.userId,
};

/** The workspaces of the page, installed first when the app is installable. */
export async function readySlackWorkspaces(opts: {
  workerUrl: string;
  slackFakeUrl: string;
  vars: ReadonlyMap<string, string>;
}): Promise<SlackWorkspace[]> {
  const installable = slackInstallable({
    SLACK_CLIENT_ID: opts.vars.get("SLACK_CLIENT_ID"),
    SLACK_CLIENT_SECRET: opts.vars.get("SLACK_CLIENT_SECRET"),
  });
  if (!installable) return [SINGLE_WORKSPACE];
  for (const workspace of INSTALLED_WORKSPACES) await installWorkspace(opts.workerUrl, workspace);
  const teams = fakeTeams.parse(await (await fetch(`${opts.slackFakeUrl}/__teams`)).json());
  return INSTALLED_WORKSPACES.map((workspace) => {
    const team = teams.find((t) => t.id === workspace.team);
    if (!team) throw new Error(`the Slack fake does not know ${workspace.team} after its install`);
    return { ...workspace, botUserId: team.botUserId };
  });
}

/** The start-up table's line: which workspaces the page has, and how they came to be. */
export function describeSlackWorkspaces(workspaces: SlackWorkspace[]): string {
  if (workspaces.length === 1 && workspaces[0] === SINGLE_WORKSPACE)
    return "one, on SLACK_BOT_TOKEN (set SLACK_CLIENT_ID to install Acme and Globex)";
  return `${workspaces.map((w) => `${w.name} (${w.team})`).join(", ")}, installed through /slack/install`;
}

async function installWorkspace(workerUrl: string, workspace: { team: string; name: string }): Promise<void> {
  const start = await fetch(`${workerUrl}/slack/install`, { redirect: "manual" });
  const authorize = redirectOf(start, "/slack/install");
  const cookie = (start.headers.get("Set-Cookie") ?? "").split(";")[0]!;
  // The person picks the workspace on Slack's authorize page; `team` picks it in the link.
  authorize.searchParams.set("team", workspace.team);
  authorize.searchParams.set("team_name", workspace.name);
  const callback = redirectOf(await fetch(authorize, { redirect: "manual" }), "the Slack fake's authorize page");
  const installed = await fetch(callback, { headers: { Cookie: cookie }, redirect: "manual" });
  const page = await installed.text();
  if (installed.status !== 200)
    throw new Error(
      `the install of ${workspace.name} ended with ${installed.status}: ${page.replace(/<[^>]+>/g, " ").trim()}`,
    );
}

function redirectOf(res: Response, what: string): URL {
  void res.body?.cancel();
  const location = res.headers.get("Location");
  if (res.status !== 302 || !location) throw new Error(`${what} answered ${res.status}, not a redirect`);
  return new URL(location);
}
