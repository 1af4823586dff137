/**
 * @module
 * "Not you" feedback: someone tells the bot it was not addressed ("not you, Parley", "I wasn't talking to you",
 * or a 👎 on its answer, which the platform records as a `feedback` message). The feedback itself gets no answer,
 * and for the follow-up window after it the bot does not follow up with that person: only an explicit address
 * (a mention, the name, a reply to the bot) gets an answer from them. Nothing is stored beside the conversation:
 * the feedback is a message in its log, which the decider reads anyway, so muting costs no Redis call.
 */
import type { BotIdentity, ConversationState, StoredMessage } from "../message.ts";
import { normalizeText } from "./names.ts";

const NOT_YOU = new RegExp(
  [
    String.raw`\bnot (?:you|u)\b`,
    String.raw`\b(?:was ?n['’]?t|was not|were ?n['’]?t|were not|not) (?:talking|speaking|asking|replying|writing) ` +
      String.raw`(?:to )?(?:you|u)\b`,
    String.raw`\b(?:was ?n['’]?t|is ?n['’]?t|is not|was not|not) (?:meant )?for (?:you|u)\b`,
    String.raw`\bnobody (?:asked|was asking|was talking to) (?:you|u)\b`,
  ].join("|"),
  "u",
);

/** The words of "not you" feedback, in text already normalized. */
export function saysNotYou(normalizedText: string): boolean {
  return NOT_YOU.test(normalizedText);
}

/**
 * Whether `m` (in `recent`, before the message at hand) told the bot it was not addressed: a 👎 recorded as
 * feedback, or "not you" words while the bot's latest answer before it was within the window.
 */
function isFeedback(m: StoredMessage, before: readonly StoredMessage[], bot: BotIdentity, windowMs: number): boolean {
  // A platform that cannot tell whose message got the 👎 names it (Telegram): it counts on one of the bot's answers.
  if (m.feedback === "not_you")
    return m.replyToId === undefined || before.some((x) => x.id === m.replyToId && x.authorId === bot.userId);
  if (m.role !== "user" || !saysNotYou(normalizeText(m.text))) return false;
  const answer = before.findLast((x) => x.authorId === bot.userId);
  return answer !== undefined && m.ts - answer.ts <= windowMs;
}

/** True when the author of the message at hand (last in state.recent) told the bot "not you" within the window. */
export function toldNotYou(state: ConversationState, bot: BotIdentity, windowMs: number): boolean {
  const recent = state.recent;
  const current = recent[recent.length - 1];
  if (current === undefined) return false;
  for (let i = recent.length - 2; i >= 0; i--) {
    const m = recent[i]!;
    if (current.ts - m.ts > windowMs) return false;
    if (m.authorId === current.authorId && isFeedback(m, recent.slice(0, i), bot, windowMs)) return true;
  }
  return false;
}
