/**
 * @module
 * A Teams activity → one platform-neutral InboundMessage, or the reason it needs no work. Pure: no API call. Only
 * activities from Teams (`channelId` `msteams`) are read: its messages, and the bot's removal from a chat or channel
 * (./lifecycle.ts), and a click on the bot's card (an `adaptiveCard/action` invoke, ./card-action.ts); typing,
 * reactions, edits, deletions and other invokes are acknowledged and ignored.
 */
import type { InboundMessage } from "../../message.ts";
import { describeIssues } from "../../zod-issues.ts";
import type { Parsed } from "../adapter.ts";
import { readAddressing } from "./addressing.ts";
import { CARD_ACTION_INVOKE, pressOfCardAction } from "./card-action.ts";
import { readLifecycle } from "./lifecycle.ts";
import { teamsFileRefs } from "./files.ts";
import {
  activityTime,
  isPersonal,
  messageIdIn,
  placeOf,
  splitConversationId,
  tenantOf,
  visibilityOf,
} from "./place.ts";
import { activitySchema, messageActivitySchema } from "./schema.ts";
import type { TeamsTarget } from "./target.ts";
import { TEAMS_CHANNEL } from "./verify.ts";

export function parseTeamsActivity(body: unknown, botName: string, now: number): Parsed {
  const envelope = activitySchema.safeParse(body);
  if (!envelope.success) return { kind: "invalid", issues: describeIssues(envelope.error) };
  if (envelope.data.channelId !== TEAMS_CHANNEL) return { kind: "ignored", reason: "not_teams" };
  if (envelope.data.type === "invoke" && envelope.data.name === CARD_ACTION_INVOKE)
    return pressOfCardAction(envelope.data);
  if (envelope.data.type !== "message")
    return readLifecycle(envelope.data) ?? { kind: "ignored", reason: envelope.data.type.toLowerCase() };
  const parsed = messageActivitySchema.safeParse(body);
  if (!parsed.success) return { kind: "invalid", issues: describeIssues(parsed.error) };
  const activity = parsed.data;
  const tenant = tenantOf(activity);
  if (!tenant) return { kind: "invalid", issues: "channelData.tenant.id: missing" };
  // The bot's own message, echoed to it: never answered.
  if (activity.from.id === activity.recipient.id) return { kind: "ignored", reason: "own_message" };
  const personal = isPersonal(activity);
  const addressed = readAddressing(activity, { personal, botName });
  const files = teamsFileRefs(activity.attachments);
  // A picture without words is a message too: the answer reads the picture.
  if (!addressed.text && files.length === 0) return { kind: "ignored", reason: "no_text" };
  const key = placeOf(activity, tenant);
  const { chat } = splitConversationId(activity.conversation.id);
  const inbound: InboundMessage = {
    key,
    id: messageIdIn(chat, activity.id),
    author: {
      id: activity.from.id,
      name: activity.from.name || "someone",
      isBot: activity.from.role === "bot",
    },
    text: addressed.text,
    ts: activityTime(activity.timestamp, now),
    addressing: addressed.addressing,
    mentions: addressed.mentions,
    ...(key.thread && key.thread !== activity.id ? { replyToId: messageIdIn(chat, key.thread) } : {}),
    replyTarget: {
      platform: "teams",
      serviceUrl: activity.serviceUrl,
      conversationId: activity.conversation.id,
      replyToId: activity.id,
      personal,
    } satisfies TeamsTarget,
    visibility: visibilityOf(activity),
    ...(files.length ? { files } : {}),
  };
  return { kind: "message", message: inbound, botUserId: activity.recipient.id };
}
