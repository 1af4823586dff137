/**
 * @module
 * A question that comes straight after the bot's own answer, before anyone else spoke, is very often a follow-up
 * for the bot, even from someone who has not spoken to it yet. On real multi-party chat this shape alone is far too
 * noisy to answer on (see bench/decision), so it never answers by itself: it only sends the message to the LLM judge
 * when the judge is enabled.
 */
import type { ConversationState } from "../conversation/types.ts";
import type { BotIdentity } from "../message.ts";
import type { DecidableMessage } from "./reasons.ts";

export function questionRightAfterBot(
  state: ConversationState,
  msg: DecidableMessage,
  bot: BotIdentity,
  windowMs: number,
): boolean {
  // state.recent ends with the message itself; the one before it is what the author was reacting to.
  const previous = state.recent.at(-2);
  return (
    previous !== undefined &&
    previous.role === "assistant" &&
    previous.authorId === bot.userId &&
    msg.ts - previous.ts <= windowMs &&
    msg.text.includes("?")
  );
}
