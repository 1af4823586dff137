/**
 * @module
 * Where a Teams message belongs in Parley's terms. The tenant is the Microsoft tenant (`channelData.tenant.id`, or
 * the conversation's `tenantId`): one organization's teams and chats, held apart from every other's. A channel's
 * conversation id names the thread's root (`19:…@thread.tacv2;messageid=1481567603816`: a post at the top of a
 * channel is the root of its own reply chain), so each reply chain is a conversation of its channel and the answer
 * joins it; a group chat and a 1:1 chat have no threads (the chat is the conversation). A 1:1 chat is the person's
 * (`dm`); a group chat or a channel only its members read.
 *
 * Message ids: an activity's id is unique only within its conversation (in channels and group chats a timestamp), so
 * the message id Parley keys on is the activity's id within its chat: `<chat id>#<activity id>`.
 */
import type { ConversationKey, Visibility } from "../../message.ts";
import type { TeamsActivity } from "./schema.ts";

const MESSAGE_ID_MARK = ";messageid=";

/** The chat of a conversation id (the channel or chat), and the reply chain's root it names, if any. */
export function splitConversationId(id: string): { chat: string; root?: string } {
  const at = id.indexOf(MESSAGE_ID_MARK);
  if (at < 0) return { chat: id };
  const root = id.slice(at + MESSAGE_ID_MARK.length);
  return root ? { chat: id.slice(0, at), root } : { chat: id.slice(0, at) };
}

export function tenantOf(activity: TeamsActivity): string | undefined {
  return activity.channelData?.tenant?.id ?? activity.conversation.tenantId;
}

export function isPersonal(activity: TeamsActivity): boolean {
  return activity.conversation.conversationType === "personal";
}

/** A message's id within its tenant. */
export function messageIdIn(chat: string, activityId: string): string {
  return `${chat}#${activityId}`;
}

export function placeOf(activity: TeamsActivity, tenant: string): ConversationKey {
  const { chat, root } = splitConversationId(activity.conversation.id);
  const threaded = activity.conversation.conversationType === "channel" && root;
  return { platform: "teams", tenant, channel: chat, ...(threaded ? { thread: root } : {}) };
}

export function visibilityOf(activity: TeamsActivity): Visibility {
  return isPersonal(activity) ? "dm" : "private";
}

/** The activity's time (ISO 8601), or the arrival time when it has none that parses. */
export function activityTime(timestamp: string | undefined, now: number): number {
  const ms = timestamp ? Date.parse(timestamp) : Number.NaN;
  return Number.isFinite(ms) ? ms : now;
}
