/**
 * @module
 * Where a Google Chat message belongs in Parley's terms. The tenant is the space (its id, `AAAAAAAAAAA` of
 * `spaces/AAAAAAAAAAA`): Chat names no organization on every event that could hold a space's data apart
 * (`Space.customer` is "not populated for direct messages or when the space is created by non-Google Workspace
 * users", and a space may hold people of several domains, each with their own `domainId`), so, as a Telegram chat
 * under its bot, each space is a tenant of its own under the app: nothing said in one reaches another, and a space
 * the app leaves is cleaned up alone. Every space spends the app's one daily budget (`budgetTenant`), so that
 * making spaces never makes more of it. A DM is a space too (`DIRECT_MESSAGE`), read only by the person and the app.
 *
 * In a space of threads (`THREADED_MESSAGES`) each thread is a conversation; a message at the top starts its own
 * thread, which the answer joins. DMs and group chats are unthreaded: the space is the conversation.
 */
import type { ConversationKey, Visibility } from "../../message.ts";
import { MESSAGE_NAME, SPACE_NAME, THREAD_NAME, type ChatMessage, type ChatSpace } from "./schema.ts";

/** The tenant every space's answers spend the daily budget of: the one app this deployment runs. */
export const APP_TENANT = "app";

export function spaceIdOf(spaceName: string): string {
  return SPACE_NAME.exec(spaceName)?.[1] ?? spaceName;
}

export function isDirectMessage(space: ChatSpace): boolean {
  return space.spaceType === "DIRECT_MESSAGE" || space.type === "DM";
}

/** A space whose messages are in threads (named spaces made since threads came are, unless their state says). */
function isThreaded(space: ChatSpace): boolean {
  if (space.spaceThreadingState) return space.spaceThreadingState === "THREADED_MESSAGES";
  return space.spaceType === "SPACE";
}

/** The thread id of a thread's resource name, when it is in `space`. */
function threadIdOf(threadName: string | undefined, spaceId: string): string | undefined {
  const match = threadName ? THREAD_NAME.exec(threadName) : null;
  return match && match[1] === spaceId ? match[2] : undefined;
}

/** The message's id within its space (`BBBB.CCCC` of `spaces/AAAA/messages/BBBB.CCCC`): unique in the tenant. */
export function messageIdOf(messageName: string): string {
  return MESSAGE_NAME.exec(messageName)?.[2] ?? messageName;
}

export function placeOf(space: ChatSpace, message: ChatMessage): ConversationKey {
  const spaceId = spaceIdOf(space.name);
  const thread = isThreaded(space) ? threadIdOf(message.thread?.name, spaceId) : undefined;
  return { platform: "google-chat", tenant: spaceId, channel: spaceId, ...(thread ? { thread } : {}) };
}

/** A DM is the person's; a space or group chat only its members read (a discoverable space is still members'). */
export function spaceVisibility(space: ChatSpace): Visibility {
  return isDirectMessage(space) ? "dm" : "private";
}

/** The message's time (RFC 3339, to the microsecond), or the arrival time when it has none that parses. */
export function messageTime(createTime: string | undefined, now: number): number {
  const ms = createTime ? Date.parse(createTime) : Number.NaN;
  return Number.isFinite(ms) ? ms : now;
}
