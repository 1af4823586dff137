/**
 * @module
 * Redis key layout. Every key carries the prefix (one per bot) and the tenant, so nothing is shared across bots
 * or tenants. A conversation is two keys that always expire together: `<place>:state` (a JSON string) and
 * `<place>:log` (sorted set of messages scored by timestamp, see scripts.ts). `<place>:answers` (list) traces the
 * bot's recent answers for the admin view; it is written only with an answer, so it never outlives the conversation.
 */
import type { ConversationKey } from "../message.ts";

export interface ConversationKeys {
  state: string;
  log: string;
  answers: string;
}

/** `|` cannot appear in platform ids we build keys from, so joined parts never collide. */
const SEP = "|";

export function placeId(key: ConversationKey): string {
  return [key.platform, key.tenant, key.channel, key.thread ?? ""].join(SEP);
}

export function conversationKeys(prefix: string, key: ConversationKey): ConversationKeys {
  const place = `${prefix}:conv:${placeId(key)}`;
  return { state: `${place}:state`, log: `${place}:log`, answers: `${place}:answers` };
}

/** Marks a delivered platform message as seen (dedupe of retries and of Slack's app_mention + message pair). */
export function seenKey(prefix: string, key: ConversationKey, messageId: string): string {
  return `${prefix}:seen:${key.platform}${SEP}${key.tenant}${SEP}${messageId}`;
}

/** The reply claim of one trigger message: "posting" while a job posts, "done" once answered or skipped. */
export function replyKey(prefix: string, key: ConversationKey, triggerId: string): string {
  return `${prefix}:reply:${key.platform}${SEP}${key.tenant}${SEP}${triggerId}`;
}
