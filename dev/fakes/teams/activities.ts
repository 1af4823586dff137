/**
 * @module
 * What the fake's Bot Connector sends the bot's messaging endpoint: a `message` activity shaped as Teams shapes
 * one ("Conversation basics", "Channel and group chat conversations with a bot"; the samples of
 * test/fixtures/platforms/teams/), and its bearer token, signed with the fake's own key ("Authentication with the
 * Bot Connector API": issuer `https://api.botframework.com`, audience the bot's app id, a `serviceurl` claim equal to
 * the activity's `serviceUrl`, an hour's life), from the key set the fake publishes with the `msteams` endorsement.
 */
import { type FakeSigningKey, signJwt } from "../signing-keys.ts";
import type { FakeActivity, FakeConversation } from "./world.ts";

const ISSUER = "https://api.botframework.com";

/** The headers the Bot Connector posts an activity to a bot's messaging endpoint with. */
export function connectorHeaders(authorization: string): Record<string, string> {
  return {
    Authorization: authorization,
    "Content-Type": "application/json; charset=utf-8",
    "User-Agent": "Microsoft-SkypeBotApi (Microsoft-BotFramework/3.0)",
  };
}
const TOKEN_LIFETIME_SECONDS = 3_600;

export interface Bot {
  id: string;
  name: string;
  appId: string;
}

export function activityToken(
  key: FakeSigningKey,
  claims: { appId: string; serviceUrl: string },
  overrides: Record<string, unknown> = {},
  now = Date.now(),
): string {
  const nbf = Math.floor(now / 1000);
  return signJwt(key, {
    serviceurl: claims.serviceUrl,
    nbf,
    exp: nbf + TOKEN_LIFETIME_SECONDS,
    iss: ISSUER,
    aud: claims.appId,
    ...overrides,
  });
}

/** The conversation id an activity of `message` arrives in: a channel's names its reply chain. */
function conversationIdOf(conversation: FakeConversation, message: FakeActivity): string {
  return conversation.type === "channel" ? `${conversation.id};messageid=${message.root}` : conversation.id;
}

export function messageActivity(
  conversation: FakeConversation,
  message: FakeActivity,
  opts: { bot: Bot; serviceUrl: string; mentioned: boolean },
): Record<string, unknown> {
  const at = new Date(Number(message.id)).toISOString();
  const mention = `<at>${opts.bot.name}</at>`;
  const channel = conversation.type === "channel";
  return {
    text: opts.mentioned ? `${mention} ${message.text}` : message.text,
    textFormat: "plain",
    type: "message",
    timestamp: at,
    localTimestamp: at,
    id: message.id,
    channelId: "msteams",
    serviceUrl: opts.serviceUrl,
    from: { id: message.from.id, name: message.from.name, aadObjectId: message.from.id.slice(3) },
    conversation: {
      ...(conversation.type === "personal" ? {} : { isGroup: true }),
      conversationType: conversation.type,
      tenantId: conversation.tenantId,
      id: conversationIdOf(conversation, message),
    },
    recipient: { id: opts.bot.id, name: opts.bot.name },
    entities: [
      ...(opts.mentioned
        ? [{ type: "mention", mentioned: { id: opts.bot.id, name: opts.bot.name }, text: mention }]
        : []),
      { type: "clientInfo", locale: "en-US", country: "US", platform: "Web", timezone: "Europe/London" },
    ],
    channelData: {
      tenant: { id: conversation.tenantId },
      ...(channel
        ? {
            teamsChannelId: conversation.id,
            teamsTeamId: conversation.teamId,
            channel: { id: conversation.id },
            team: { id: conversation.teamId },
          }
        : {}),
    },
    locale: "en-US",
    localTimezone: "Europe/London",
  };
}

/**
 * What Teams sends when the bot is removed from a conversation: `conversationUpdate` with the bot in `membersRemoved`
 * (`teamMemberRemoved` in a team) and `installationUpdate` with `action: remove`, both in the chat (a team's in its
 * channel), as "Conversation events in your Teams bot" shows them.
 */
export function removalActivities(
  conversation: FakeConversation,
  by: { id: string },
  opts: { bot: Bot; serviceUrl: string; id: () => string },
): Record<string, unknown>[] {
  const channel = conversation.type === "channel";
  const common = () => ({
    timestamp: new Date().toISOString(),
    id: `f:${opts.id()}`,
    channelId: "msteams",
    serviceUrl: opts.serviceUrl,
    from: { id: by.id, aadObjectId: by.id.slice(3) },
    conversation: {
      ...(conversation.type === "personal" ? {} : { isGroup: true }),
      conversationType: conversation.type,
      tenantId: conversation.tenantId,
      id: conversation.id,
    },
    recipient: { id: opts.bot.id, name: opts.bot.name },
    channelData: {
      tenant: { id: conversation.tenantId },
      ...(channel ? { team: { id: conversation.teamId }, channel: { id: conversation.id } } : {}),
    },
  });
  const update = {
    membersRemoved: [{ id: opts.bot.id }],
    type: "conversationUpdate",
    ...common(),
  };
  if (channel) (update.channelData as Record<string, unknown>).eventType = "teamMemberRemoved";
  return [update, { action: "remove", type: "installationUpdate", ...common() }];
}
