/**
 * @module
 * Stored messages as the transcript lines of the memory calls: people with their ids (facts are filed by id), the
 * bot marked as the bot.
 */
import type { StoredMessage } from "../conversation/types.ts";
import { botLine, personLine } from "../llm/memory-wording.ts";

export function transcriptLines(messages: StoredMessage[], bot: { userId: string; name: string }): string[] {
  return messages.map((m) =>
    m.role === "assistant" || m.authorId === bot.userId ? botLine(bot.name, m.text) : personLine(m.authorId, m.authorName, m.text),
  );
}

/** The latest exchange: everything after the bot's previous answer, up to and including its latest one. */
export function latestExchange(messages: StoredMessage[], botUserId: string, maxMessages: number): StoredMessage[] {
  const answers = messages.flatMap((m, i) => (m.role === "assistant" || m.authorId === botUserId ? [i] : []));
  const last = answers.at(-1);
  if (last === undefined) return [];
  const previous = answers.at(-2) ?? -1;
  return messages.slice(Math.max(previous + 1, last + 1 - maxMessages), last + 1);
}
