/**
 * @module
 * zod schemas for the Slack Events API payloads Parley reads. Loose objects: Slack adds fields without notice,
 * and only the fields we read are checked (strictly), only for the events we use: an envelope first shows just its
 * event's type (`callbackShapeSchema`), and an event Parley does not use is never checked further, so that a field
 * Slack leaves out or shapes otherwise there can never turn a signed delivery into a refusal.
 */
import * as z from "../../zod.ts";

/** A Slack message timestamp: seconds, a dot, microseconds ("1700000000.000100"). It is also the message's id. */
export const slackTs = z.string().check(z.regex(/^\d+\.\d+$/, "not a Slack ts"));
/**
 * A Slack id: the letter of its kind (U or W a user, B a bot, T a workspace, E an org, C, G or D a channel, A an app)
 * then capitals and digits ("U0ALICE01", "USLACKBOT", "T0001ABCD"), as Slack writes every one of them. Ids become
 * parts of keys and fields of log lines: a delivery that carries anything else (a control character, a key's
 * separator) is not Slack's and gets a 400, the field named, never its value.
 */
export const slackId = z.string().check(z.regex(/^[UWBTECGDA][A-Z0-9]+$/, "not a Slack id"));
/** The envelope's own id ("Ev0123ABCD"): only read, never keyed by. */
const slackEventId = z.string().check(z.minLength(1));

export const urlVerificationSchema = z.looseObject({
  type: z.literal("url_verification"),
  challenge: z.string().check(z.minLength(1)),
});

/** Slack documents every field of an authorization as optional (its own SDK's `Authorization` type). */
const authorizationSchema = z.looseObject({
  user_id: z.optional(slackId),
  is_bot: z.optional(z.boolean()),
  is_enterprise_install: z.optional(z.boolean()),
  team_id: z.nullish(slackId),
  enterprise_id: z.nullish(slackId),
});

/** An `event_callback` as far as telling its event's type needs; the docs' team_access_revoked nests the event. */
export const callbackShapeSchema = z.looseObject({
  type: z.literal("event_callback"),
  event: z.looseObject({
    type: z.optional(z.string()),
    subtype: z.optional(z.string()),
    event: z.optional(z.looseObject({ type: z.string() })),
  }),
});

/** The envelope of an event Parley uses. */
export const eventCallbackSchema = z.looseObject({
  type: z.literal("event_callback"),
  team_id: slackId,
  enterprise_id: z.nullish(slackId),
  api_app_id: z.optional(slackId),
  event_id: z.optional(slackEventId),
  /** Who the app acts as in this delivery; the bot's own user id is here, so no API call is needed. (Absent on
   *  app_uninstalled, whose installation is gone.) */
  authorizations: z._default(z.array(authorizationSchema), []),
});

/** The fields of an `app_mention` or `message` event that become an InboundMessage. */
export const messageEventSchema = z.looseObject({
  type: z.enum(["app_mention", "message"]),
  subtype: z.optional(z.string()),
  channel: slackId,
  /** Absent on app_mention; "channel", "group", "im" or "mpim" on message events. */
  channel_type: z.optional(z.string()),
  user: z.optional(slackId),
  /** The author's own workspace (another one's in a Slack Connect channel, a workspace of the org on Grid). */
  user_team: z.optional(slackId),
  team: z.optional(slackId),
  bot_id: z.optional(slackId),
  app_id: z.optional(slackId),
  text: z.optional(z.string()),
  ts: slackTs,
  thread_ts: z.optional(slackTs),
  parent_user_id: z.optional(slackId),
  /** `message_replied` comes without its subtype (a bug Slack's docs warn of): hidden, with the parent nested. */
  hidden: z.optional(z.boolean()),
  message: z.optional(z.looseObject({})),
  /** A file_share message's files: each read on its own (./files.ts), so one odd file never refuses the delivery. */
  files: z.optional(z.array(z.unknown())),
  user_profile: z.optional(z.looseObject({ display_name: z.optional(z.string()), real_name: z.optional(z.string()) })),
});

export type SlackMessageEvent = z.infer<typeof messageEventSchema>;
export type SlackEventCallback = z.infer<typeof eventCallbackSchema>;

/** team_access_revoked: an org-wide install lost these workspaces of the org (it stays installed in the others). */
export const teamAccessRevokedSchema = z.looseObject({
  type: z.literal("team_access_revoked"),
  team_ids: z.array(slackId),
});

/** tokens_revoked: the user ids whose tokens were revoked; a bot id among `bot` means the bot token is gone. */
export const tokensRevokedSchema = z.looseObject({
  type: z.literal("tokens_revoked"),
  tokens: z.looseObject({ oauth: z.optional(z.array(z.string())), bot: z.optional(z.array(z.string())) }),
});

/** A `reaction_added` event: who reacted with what, on which item, and whose item it was. */
export const reactionEventSchema = z.looseObject({
  type: z.literal("reaction_added"),
  user: slackId,
  reaction: z.string(),
  item_user: z.optional(slackId),
  item: z.looseObject({ type: z.string(), channel: z.optional(slackId), ts: z.optional(slackTs) }),
  event_ts: slackTs,
});
