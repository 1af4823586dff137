/**
 * @module
 * zod schemas for the Slack Events API payloads Parley reads. Loose objects: Slack adds fields without notice,
 * and only the fields we read are checked (strictly).
 */
import * as z from "zod";

/** A Slack message timestamp: seconds, a dot, microseconds ("1700000000.000100"). It is also the message's id. */
export const slackTs = z.string().regex(/^\d+\.\d+$/, "not a Slack ts");
/**
 * A Slack id: the letter of its kind (U or W a user, B a bot, T a workspace, E an org, C, G or D a channel, A an app)
 * then capitals and digits ("U0ALICE01", "USLACKBOT", "T0001ABCD"), as Slack writes every one of them. Ids become
 * parts of keys and fields of log lines: a delivery that carries anything else (a control character, a key's
 * separator) is not Slack's and gets a 400, the field named, never its value.
 */
export const slackId = z.string().regex(/^[UWBTECGDA][A-Z0-9]+$/, "not a Slack id");
/** The envelope's own id ("Ev0123ABCD"): only read, never keyed by. */
const slackEventId = z.string().min(1);

export const urlVerificationSchema = z.looseObject({
  type: z.literal("url_verification"),
  challenge: z.string().min(1),
});

export const authorizationSchema = z.looseObject({
  user_id: slackId,
  is_bot: z.boolean().optional(),
  team_id: slackId.nullish(),
  enterprise_id: slackId.nullish(),
});

export const eventCallbackSchema = z.looseObject({
  type: z.literal("event_callback"),
  team_id: slackId,
  enterprise_id: slackId.nullish(),
  api_app_id: slackId.optional(),
  event_id: slackEventId.optional(),
  /** Who the app acts as in this delivery; the bot's own user id is here, so no API call is needed. (Absent on
   *  app_uninstalled, whose installation is gone.) */
  authorizations: z.array(authorizationSchema).default([]),
  event: z.looseObject({ type: z.string(), subtype: z.string().optional() }),
});

/** The fields of an `app_mention` or `message` event that become an InboundMessage. */
export const messageEventSchema = z.looseObject({
  type: z.enum(["app_mention", "message"]),
  subtype: z.string().optional(),
  channel: slackId,
  /** Absent on app_mention; "channel", "group", "im" or "mpim" on message events. */
  channel_type: z.string().optional(),
  user: slackId.optional(),
  bot_id: slackId.optional(),
  app_id: slackId.optional(),
  text: z.string().optional(),
  ts: slackTs,
  thread_ts: slackTs.optional(),
  parent_user_id: slackId.optional(),
  user_profile: z
    .looseObject({ display_name: z.string().optional(), real_name: z.string().optional() })
    .optional(),
});

export type SlackMessageEvent = z.infer<typeof messageEventSchema>;
export type SlackEventCallback = z.infer<typeof eventCallbackSchema>;

/** tokens_revoked: the user ids whose tokens were revoked; a bot id among `bot` means the bot token is gone. */
export const tokensRevokedSchema = z.looseObject({
  type: z.literal("tokens_revoked"),
  tokens: z.looseObject({ oauth: z.array(z.string()).optional(), bot: z.array(z.string()).optional() }),
});

/** A `reaction_added` event: who reacted with what, on which item, and whose item it was. */
export const reactionEventSchema = z.looseObject({
  type: z.literal("reaction_added"),
  user: slackId,
  reaction: z.string(),
  item_user: slackId.optional(),
  item: z.looseObject({ type: z.string(), channel: slackId.optional(), ts: slackTs.optional() }),
  event_ts: slackTs,
});

export type SlackReactionEvent = z.infer<typeof reactionEventSchema>;
