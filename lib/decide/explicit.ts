/**
 * @module
 * Tier 1: the message addresses the bot explicitly, by the platform's own means or by the bot's name.
 * These always answer; the learned tier never overrides them.
 */
import type { BotIdentity } from "../message.ts";
import { containsNormalizedName, normalizeText } from "./names.ts";
import type { DecidableMessage, DecisionReason } from "./reasons.ts";

const ADDRESSING_REASON = {
  mention: "direct_mention",
  reply_to_bot: "reply_to_bot",
  dm: "dm",
  command: "command",
} as const satisfies Record<Exclude<DecidableMessage["addressing"], "none">, DecisionReason>;

/** The reason a message explicitly addresses the bot, or null. Cheap: runs before the Redis call. */
export function explicitTrigger(msg: DecidableMessage, bot: BotIdentity): DecisionReason | null {
  if (msg.addressing !== "none") return ADDRESSING_REASON[msg.addressing];
  if (msg.mentions.includes(bot.userId)) return "direct_mention";
  if (msg.replyToAuthorId !== undefined && msg.replyToAuthorId === bot.userId) return "reply_to_bot";
  const text = normalizeText(msg.text);
  if (containsNormalizedName(text, normalizeText(bot.name.trim()))) return "name_exact";
  for (const alias of bot.aliases) {
    if (containsNormalizedName(text, normalizeText(alias.trim()))) return "name_alias";
  }
  return null;
}
