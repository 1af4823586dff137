/**
 * @module
 * Stored messages as the memory calls read them: one record per message with its id and its author's id (facts
 * are filed by author and must cite the messages they come from), the bot's own messages marked as the bot's.
 */
import type { StoredMessage } from "../message.ts";
import type { MessageRecord } from "../llm/memory-wording.ts";

export function messageRecords(messages: StoredMessage[], bot: { userId: string; name: string }): MessageRecord[] {
  return messages.map((m) =>
    isBot(m, bot.userId)
      ? { id: m.id, author_id: bot.userId, author_name: bot.name, bot: true, text: m.text }
      : { id: m.id, author_id: m.authorId, author_name: m.authorName, text: m.text },
  );
}

export function isBot(message: StoredMessage, botUserId: string): boolean {
  return message.role === "assistant" || message.authorId === botUserId;
}

/** The latest exchange: everything after the bot's previous answer, up to and including its latest one. */
export function latestExchange(messages: StoredMessage[], botUserId: string, maxMessages: number): StoredMessage[] {
  const answers = messages.flatMap((m, i) => (isBot(m, botUserId) ? [i] : []));
  const last = answers.at(-1);
  if (last === undefined) return [];
  const previous = answers.at(-2) ?? -1;
  return messages.slice(Math.max(previous + 1, last + 1 - maxMessages), last + 1);
}
