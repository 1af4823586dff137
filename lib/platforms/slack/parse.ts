/**
 * @module
 * Slack Events API envelope → one platform-neutral InboundMessage, or the reason it needs no work.
 * Pure: no API call. The bot's own user id comes from the envelope's `authorizations`. Only what Parley uses is
 * checked: any other signed event (and any shape of it) is acknowledged and ignored, never refused, since Slack
 * retries a refusal and counts it against the app.
 */
import type { Addressing, ConversationKey, InboundMessage } from "../../message.ts";
import { describeIssues } from "../../zod-issues.ts";
import { AGENT_CONTEXT_EVENTS } from "./agent-surface.ts";
import { installationOf, LIFECYCLE_EVENTS, parseSlackLifecycle, tenantOf } from "./lifecycle.ts";
import { mentionedUserIds, readableMentions } from "./mentions.ts";
import { parseSlackReaction } from "./reaction.ts";
import { slackFileRefs } from "./files.ts";
import type { SlackTarget } from "./target.ts";
import { slackVisibility } from "./visibility.ts";
import {
  callbackShapeSchema,
  eventCallbackSchema,
  messageEventSchema,
  urlVerificationSchema,
  type SlackEventCallback,
  type SlackMessageEvent,
} from "./schema.ts";
import type { ApprovalParsed } from "../../approvals/capability.ts";

/** Subtypes that are still a person's message; every other subtype (edits, joins, bot posts...) is not. */
const USER_MESSAGE_SUBTYPES: ReadonlySet<string> = new Set(["thread_broadcast", "file_share"]);
const MESSAGE_EVENT_TYPES: ReadonlySet<string> = new Set(["app_mention", "message"]);
const DM_CHANNEL_TYPE = "im";
/** A 👎 on the bot's answer is feedback (./reaction.ts). */
const REACTION_EVENT = "reaction_added";
/** Slack's own bot: it writes notices ("You have been removed from #…") into the bot's DM, without a `bot_id`. */
const SLACKBOT = "USLACKBOT";

export type SlackParsed =
  | { kind: "url_verification"; challenge: string }
  | { kind: "message"; message: InboundMessage; bot: { userId: string; botId?: string }; installation: string }
  | { kind: "removed"; tenants: string[]; accessRevoked?: true }
  | { kind: "left"; place: ConversationKey }
  | { kind: "ignored"; reason: string }
  | ApprovalParsed;

export interface SlackParseOptions {
  botName: string;
  /** The bot's `B…` id when the caller knows it (e.g. from config); own posts are also caught without it. */
  botId?: string;
}

export function parseSlackEvent(
  body: unknown,
  opts: SlackParseOptions,
): SlackParsed | { kind: "invalid"; issues: string } {
  const type = typeof body === "object" && body !== null ? (body as { type?: unknown }).type : undefined;
  if (type === "url_verification") {
    const parsed = urlVerificationSchema.safeParse(body);
    return parsed.success
      ? { kind: "url_verification", challenge: parsed.data.challenge }
      : { kind: "invalid", issues: describeIssues(parsed.error) };
  }
  if (type !== "event_callback") {
    return typeof type === "string" ? ignored(`envelope:${type}`) : { kind: "invalid", issues: "type: missing" };
  }
  const shape = callbackShapeSchema.safeParse(body);
  if (!shape.success) return { kind: "invalid", issues: describeIssues(shape.error) };
  const wrapper = shape.data.event;
  // The docs' team_access_revoked nests a second envelope in `event`; every other event is `event` itself.
  const event = wrapper.type === undefined && wrapper.event ? wrapper.event : wrapper;
  if (event.type === undefined) return ignored("untyped_event");
  const typed = { ...event, type: event.type };
  if (LIFECYCLE_EVENTS.has(typed.type)) return parseSlackLifecycle(body, typed, wrapper);
  if (AGENT_CONTEXT_EVENTS.has(typed.type)) return ignored("agent_context_unread");
  if (typed.type !== REACTION_EVENT && !MESSAGE_EVENT_TYPES.has(typed.type)) return ignored("unsupported_event");
  if (wrapper.subtype !== undefined && !USER_MESSAGE_SUBTYPES.has(wrapper.subtype))
    return ignored(`subtype:${wrapper.subtype}`);

  const envelope = eventCallbackSchema.safeParse(body);
  if (!envelope.success) return { kind: "invalid", issues: describeIssues(envelope.error) };
  const botUser = botUserId(envelope.data);
  // Slack sends every event with the installation it is for; without one there is no bot to speak as.
  if (botUser === undefined) return ignored("no_authorization");
  const installation = installationOf(envelope.data);
  if (typed.type === REACTION_EVENT) {
    const reaction = parseSlackReaction(typed, tenantOf(envelope.data), botUser);
    return reaction.kind === "message"
      ? { kind: "message", message: reaction.message, bot: { userId: botUser }, installation }
      : reaction;
  }

  const parsedEvent = messageEventSchema.safeParse(typed);
  if (!parsedEvent.success) return { kind: "invalid", issues: describeIssues(parsedEvent.error, "event.") };
  const message = parsedEvent.data;
  if (message.hidden) return ignored("hidden");
  if (message.message !== undefined) return ignored("subtype:message_replied");

  const bot = { userId: botUser, ...(opts.botId ? { botId: opts.botId } : {}) };
  if (isOwnMessage(message, envelope.data, bot)) return ignored("own_message");
  const author = message.user ?? message.bot_id;
  if (!author) return { kind: "invalid", issues: "event.user: missing" };
  const files = slackFileRefs(message.files);
  // A picture without words is a message too: the answer reads the picture.
  if (!message.text?.trim() && files.length === 0) return ignored("no_text");
  const inbound = toInboundMessage(message, envelope.data, author, bot.userId, opts);
  return { kind: "message", message: files.length ? { ...inbound, files } : inbound, bot, installation };
}

function toInboundMessage(
  event: SlackMessageEvent,
  envelope: SlackEventCallback,
  authorId: string,
  botUserId: string,
  opts: SlackParseOptions,
): InboundMessage {
  const text = event.text ?? "";
  const inThread = event.thread_ts !== undefined && event.thread_ts !== event.ts;
  return {
    key: {
      platform: "slack",
      tenant: tenantOf(envelope),
      channel: event.channel,
      ...(inThread ? { thread: event.thread_ts } : {}),
    },
    // channel + ts, not event_id: the app_mention and message twins of one post, and retries, share it.
    id: slackMessageId(event.channel, event.ts),
    author: {
      id: authorId,
      name: event.user_profile?.display_name || event.user_profile?.real_name || authorId,
      isBot: Boolean(event.bot_id) || authorId === SLACKBOT,
    },
    text: readableMentions(text, { userId: botUserId, name: opts.botName }),
    ts: Math.round(parseFloat(event.ts) * 1000),
    addressing: addressingOf(event, text, botUserId, inThread),
    mentions: mentionedUserIds(text),
    ...(inThread && event.parent_user_id ? { replyToAuthorId: event.parent_user_id } : {}),
    ...(inThread && event.thread_ts ? { replyToId: slackMessageId(event.channel, event.thread_ts) } : {}),
    // The conversation is the place the message was written in: answer a thread in the thread, and a channel
    // message in the channel, so that the answer and the follow-ups stay in the same conversation. A stream names
    // the person's own workspace, which differs from the tenant's in a Slack Connect channel and on Grid.
    replyTarget: {
      platform: "slack",
      channel: event.channel,
      ...(inThread ? { threadTs: event.thread_ts } : {}),
      recipientTeam: event.user_team ?? event.team ?? envelope.team_id,
    } satisfies SlackTarget,
    visibility: slackVisibility(event.channel, event.channel_type),
  };
}

/** The id of a message: its channel and ts (the ts alone is unique only within its channel). */
export function slackMessageId(channel: string, ts: string): string {
  return `${channel}:${ts}`;
}

function addressingOf(event: SlackMessageEvent, text: string, botUserId: string, inThread: boolean): Addressing {
  if (event.channel_type === DM_CHANNEL_TYPE) return "dm";
  if (event.type === "app_mention" || mentionedUserIds(text).includes(botUserId)) return "mention";
  if (inThread && event.parent_user_id === botUserId) return "reply_to_bot";
  return "none";
}

/** The bot user this delivery is for: the first bot authorization (Slack lists the app's installation first). */
function botUserId(envelope: SlackEventCallback): string | undefined {
  const authorizations = envelope.authorizations.filter((a) => a.user_id !== undefined);
  return (authorizations.find((a) => a.is_bot) ?? authorizations[0])?.user_id;
}

/** Our own posts come back as message events: caught by bot user id, by bot id, or by our app id. */
function isOwnMessage(event: SlackMessageEvent, envelope: SlackEventCallback, bot: { userId: string; botId?: string }) {
  if (event.user === bot.userId) return true;
  if (!event.bot_id) return false;
  return event.bot_id === bot.botId || (envelope.api_app_id !== undefined && event.app_id === envelope.api_app_id);
}

function ignored(reason: string): SlackParsed {
  return { kind: "ignored", reason };
}
