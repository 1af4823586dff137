/**
 * @module
 * Where /slack/install sends the person: Slack's OAuth v2 authorize page, asking for the bot scopes of
 * slack-app-manifest.yaml (test/dev/slack-oauth.test.ts keeps the two lists equal), with the install's `state`.
 */

export const SLACK_BOT_SCOPES: readonly string[] = [
  "app_mentions:read",
  "channels:history",
  "groups:history",
  "im:history",
  "mpim:history",
  "chat:write",
  // The agent surface's suggested prompts and thread titles (../agent-surface.ts).
  "assistant:write",
  "reactions:write",
  "reactions:read",
  // The files people paste (lib/platforms/slack/files.ts).
  "files:read",
  // `/parley` (functions/slack.ts): the command itself, and who may change a channel's settings.
  "commands",
  "users:read",
  "channels:read",
  "groups:read",
  // A person's own digest opens their DM (../personal-digests.ts).
  "im:write",
];

export const CALLBACK_PATH = "/slack/oauth/callback";

/**
 * Slack's authorize page sits beside its Web API (`https://slack.com/api` → `https://slack.com/oauth/v2/authorize`).
 */
export function authorizeUrl(args: {
  apiBaseUrl: string;
  clientId: string;
  state: string;
  redirectUri: string;
}): string {
  const url = new URL(`${args.apiBaseUrl.replace(/\/api$/, "")}/oauth/v2/authorize`);
  url.searchParams.set("client_id", args.clientId);
  url.searchParams.set("scope", SLACK_BOT_SCOPES.join(","));
  url.searchParams.set("state", args.state);
  url.searchParams.set("redirect_uri", args.redirectUri);
  return url.toString();
}
