/**
 * @module
 * The conversation as its author saw it when a message was written. A message can reach the decider after the
 * bot's latest answer although it was written before it (a platform's late retry, a redelivery of one recorded
 * earlier): that answer, and what others wrote after the message, are not what its author was reacting to, and
 * reading them would take the message for a follow-up to an answer it never saw.
 */
import type { ConversationState, StoredMessage } from "../message.ts";

export function asWhenWritten(state: ConversationState, msg: StoredMessage): ConversationState {
  if (state.lastBotReplyAt === undefined || state.lastBotReplyAt <= msg.ts) return state;
  const before = state.recent.filter((m) => m.ts < msg.ts && m.id !== msg.id);
  const answer = before.findLast((m) => m.role === "assistant");
  return {
    ...state,
    recent: [...before, msg],
    lastBotReplyAt: answer?.ts,
    lastBotReplyTo: answer?.replyToAuthorId ? [answer.replyToAuthorId] : [],
  };
}
