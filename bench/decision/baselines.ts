/**
 * @module
 * The two reference rules the decider is measured against, on the same pairs:
 * the first design's follow-up rule, and "the bot's name appears in the message".
 */
import { containsName } from "../../lib/decide/names.ts";
import type { DecisionPair } from "./pairs.ts";

const FIRST_DESIGN_WINDOW_MS = 60_000;
const SHORT_QUESTION_MAX_WORDS = 10;
const FOLLOW_UP_OPENERS = /^\s*(and|also|what about|why|but)\b/i;

/**
 * "A short question, or a message starting with and / also / what about / why / but, within 60 s after the bot spoke."
 */
function firstDesignRule(pair: DecisionPair): boolean {
  const { lastBotReplyAt } = pair.state;
  if (lastBotReplyAt === undefined || pair.msg.ts - lastBotReplyAt > FIRST_DESIGN_WINDOW_MS) return false;
  const text = pair.msg.text.trim();
  const shortQuestion = text.endsWith("?") && text.split(/\s+/).length <= SHORT_QUESTION_MAX_WORDS;
  return shortQuestion || FOLLOW_UP_OPENERS.test(text);
}

function nameMentionRule(pair: DecisionPair): boolean {
  return containsName(pair.msg.text, pair.bot.name);
}

export const BASELINES: Record<string, (pair: DecisionPair) => boolean> = {
  first_design: firstDesignRule,
  name_mention_only: nameMentionRule,
};
