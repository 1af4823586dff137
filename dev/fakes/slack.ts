/**
 * @module
 * The Slack Web API fake for tests and `npm run dev` (the code is in ./slack/): chat.postMessage and chat.update,
 * text streaming, assistant threads, reactions, conversations.history/replies, oauth.v2.access and auth.test, with
 * Slack's errors and per-method rate limits. `GET /__calls` lists the chat.postMessage posts people would see
 * (each with the team of the token that made it); see ./slack/control.ts and ./control.ts for the other controls.
 * Standalone: `node dev/fakes/slack.ts` (SLACK_FAKE_PORT, default 8091).
 */
import { serveStandalone } from "../serve-standalone.ts";
import { startSlackFake } from "./slack/server.ts";
import { SLACK_FAKE_APP_ID, SLACK_FAKE_DEFAULT_TEAM } from "./slack/workspaces.ts";

export { startSlackFake, type RunningSlackFake } from "./slack/server.ts";
export type { RecordedSlackPost } from "./slack/context.ts";
export { SLACK_FAKE_OAUTH_CLIENT, type SlackSettingsPatch } from "./slack/settings.ts";

const DEFAULT_SLACK_FAKE_PORT = 8091;
/**
 * Who the fake says posted for the default team: tests can feed these back into events to check own-message filtering.
 */
export const SLACK_FAKE_BOT = {
  userId: SLACK_FAKE_DEFAULT_TEAM.botUserId,
  botId: SLACK_FAKE_DEFAULT_TEAM.botId,
  appId: SLACK_FAKE_APP_ID,
  teamId: SLACK_FAKE_DEFAULT_TEAM.id,
};

if (import.meta.main) {
  serveStandalone("slack_fake", () =>
    startSlackFake({ port: Number(process.env.SLACK_FAKE_PORT ?? DEFAULT_SLACK_FAKE_PORT) }),
  );
}
