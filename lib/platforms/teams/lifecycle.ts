/**
 * @module
 * The bot added to or removed from a Teams conversation ("Conversation events in your Teams bot", "Installation
 * update event"). Removed (`conversationUpdate` with the bot in `membersRemoved`, or `installationUpdate` with
 * `action: remove`; Teams sends both for one removal) is the chat or channel `left`: its digest and what Parley kept
 * of it go. A removal names one conversation and never the whole Microsoft tenant: the bot's one registration serves
 * every tenant, and its other teams and chats keep it. Added (`membersAdded`, `action: add`) needs no work: the bot
 * says nothing until someone writes to it.
 */
import type { Parsed } from "../adapter.ts";
import { splitConversationId, tenantOf } from "./place.ts";
import type { TeamsActivity } from "./schema.ts";

const REMOVED = "remove";

/** What a `conversationUpdate` or `installationUpdate` activity is; null for any other type. */
export function readLifecycle(activity: TeamsActivity): Parsed | null {
  const bot = activity.recipient.id;
  let removed: boolean;
  if (activity.type === "installationUpdate") removed = activity.action === REMOVED;
  else if (activity.type === "conversationUpdate") {
    if (activity.membersAdded?.some((m) => m.id === bot)) return { kind: "ignored", reason: "bot_added" };
    removed = activity.membersRemoved?.some((m) => m.id === bot) ?? false;
    if (!removed) return { kind: "ignored", reason: "conversationupdate" };
  } else return null;
  if (!removed) return { kind: "ignored", reason: "installed" };
  const tenant = tenantOf(activity);
  if (!tenant) return { kind: "invalid", issues: "channelData.tenant.id: missing" };
  const { chat } = splitConversationId(activity.conversation.id);
  return { kind: "left", place: { platform: "teams", tenant, channel: chat } };
}
