/**
 * @module
 * Tier 1: the message addresses the bot explicitly, by the platform's own means or by the bot's name used to
 * address it (lib/decide/address.ts). These always answer; the learned tier never overrides them. A name used to
 * talk ABOUT the bot ("as parley said") is no trigger: the learned tier reads it.
 */
import type { BotIdentity } from "../message.ts";
import { type NameUse, nameUse } from "./address.ts";
import { normalizeText } from "./names.ts";
import type { DecidableMessage, DecisionReason } from "./reasons.ts";

const ADDRESSING_REASON = {
  mention: "direct_mention",
  reply_to_bot: "reply_to_bot",
  dm: "dm",
  command: "command",
} as const satisfies Record<Exclude<DecidableMessage["addressing"], "none">, DecisionReason>;

/** How the text uses the bot's name or an alias: "address" wins over "reference"; null when it names none. */
export function botNameUse(
  text: string,
  bot: BotIdentity,
): { use: NameUse; reason: "name_exact" | "name_alias" } | null {
  const normalized = normalizeText(text);
  let found: { use: NameUse; reason: "name_exact" | "name_alias" } | null = null;
  const names = [bot.name, ...bot.aliases];
  for (let k = 0; k < names.length; k++) {
    const use = nameUse(normalized, normalizeText(names[k]!.trim()));
    if (use === null) continue;
    const reason = k === 0 ? "name_exact" : "name_alias";
    if (use === "address") return { use, reason };
    found ??= { use, reason };
  }
  return found;
}

/** The reason a message explicitly addresses the bot, or null. Cheap: runs before the Redis call. */
export function explicitTrigger(msg: DecidableMessage, bot: BotIdentity): DecisionReason | null {
  if (msg.addressing !== "none") return ADDRESSING_REASON[msg.addressing];
  if (msg.mentions.includes(bot.userId)) return "direct_mention";
  if (msg.replyToAuthorId !== undefined && msg.replyToAuthorId === bot.userId) return "reply_to_bot";
  const named = botNameUse(msg.text, bot);
  return named?.use === "address" ? named.reason : null;
}
