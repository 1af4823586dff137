/**
 * @module
 * Where a Telegram message belongs in Parley's terms. The tenant is the chat under its bot, `<bot id>:<chat id>`:
 * the bot (one token) is the tenant the way a Slack org is (its daily token budget, its token), and each chat's
 * keys are apart under it the way an org's workspaces are (`E…:T…`), so that a chat the bot leaves is cleaned up
 * alone (lib/jobs/tenant-cleanup.ts) and nothing said in one group reaches another. A forum topic is a place of
 * its own in its chat; the General topic, and every non-forum chat, is the chat itself.
 */
import type { ConversationKey, Visibility } from "../../message.ts";
import type { TelegramChat, TelegramMessage } from "./schema.ts";

export function tenantOf(botId: string, chatId: number): string {
  return `${botId}:${chatId}`;
}

/** The bot a tenant belongs to: its daily budget is the bot's (PlatformAdapter.budgetTenant). */
export function botOfTenant(tenant: string): string {
  return tenant.slice(0, tenant.indexOf(":"));
}

/** The forum topic a message is in; undefined in the General topic and outside forums. */
export function topicOf(message: TelegramMessage): number | undefined {
  return message.is_topic_message && message.message_thread_id !== undefined ? message.message_thread_id : undefined;
}

export function placeOf(botId: string, chat: TelegramChat, topic?: number): ConversationKey {
  return {
    platform: "telegram",
    tenant: tenantOf(botId, chat.id),
    channel: String(chat.id),
    ...(topic !== undefined ? { thread: String(topic) } : {}),
  };
}

/**
 * Who reads a chat: a private chat is the person's DM; a group with a public username anyone can read; any other
 * group only its members.
 */
export function chatVisibility(chat: TelegramChat): Visibility {
  if (chat.type === "private") return "dm";
  return chat.username ? "public" : "private";
}

/**
 * Telegram dates messages in whole seconds: the arrival time within that second keeps the order of a burst
 * written in one second (a sorted log orders equal times by the stored text, not by when they were said).
 */
export function messageTime(dateSeconds: number, now: number): number {
  const second = dateSeconds * 1000;
  return second + Math.min(999, Math.max(0, now - second));
}
