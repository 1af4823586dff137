/**
 * @module
 * Reset words ("start over", "new topic", "reset") end the conversation and start a fresh one. Only a message
 * that is nothing but a reset word (after the bot's name or mention) counts, so "don't reset the router" does not.
 */
import type { BotIdentity } from "../message.ts";
import { normalizeWords } from "../text/normalize.ts";

export function isResetRequest(text: string, bot: BotIdentity, resetWords: string[]): boolean {
  let rest = ` ${normalizeWords(text)} `;
  for (const name of [bot.name, ...bot.aliases]) {
    const n = normalizeWords(name);
    if (n) rest = rest.split(` ${n} `).join(" ");
  }
  const core = rest.trim();
  return core.length > 0 && resetWords.some((w) => normalizeWords(w) === core);
}
