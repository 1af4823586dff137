/**
 * @module
 * Who can read a Slack conversation, from what the event says: `channel_type` im → dm, mpim and group (private
 * channel) → private, channel → public. `app_mention` events carry no channel_type: a `D…` channel is a DM, any
 * other counts as private, never public, since telling a public channel from a private one would need
 * `conversations.info` and scopes the app does not ask for. (The `message` twin of a mention carries the type.)
 */
import type { Visibility } from "../../message.ts";

const BY_CHANNEL_TYPE: Readonly<Record<string, Visibility>> = {
  im: "dm",
  mpim: "private",
  group: "private",
  channel: "public",
};
const DM_CHANNEL_PREFIX = "D";

export function slackVisibility(channel: string, channelType: string | undefined): Visibility {
  if (channelType !== undefined) return BY_CHANNEL_TYPE[channelType] ?? "private";
  return channel.startsWith(DM_CHANNEL_PREFIX) ? "dm" : "private";
}
