/**
 * @module
 * What recall searches with: the message being answered and the turn before it, as `Name: text` lines like the
 * passages, bounded so the embedding model reads all of it (the trigger is kept whole as far as possible).
 */
import { countTokens } from "../../context/tokens.ts";
import { shortenToTokens } from "../../context/shorten.ts";
import type { StoredMessage } from "../../message.ts";
import { messageLine } from "./build-passages.ts";

/** Well within the 512 tokens of the hosted BGE models. */
const MAX_QUERY_TOKENS = 256;

/** `messages` oldest first, the trigger among them; the message before it is its previous turn. */
export function recallQueryText(
  bot: { userId: string; name: string },
  messages: StoredMessage[],
  triggerId: string,
): string {
  const at = messages.findIndex((m) => m.id === triggerId);
  if (at < 0) throw new Error("the trigger message is not among the messages given to recall");
  const trigger = shortenToTokens(messageLine({ bot }, messages[at]!), MAX_QUERY_TOKENS);
  const previous = messages[at - 1];
  if (!previous) return trigger;
  const room = MAX_QUERY_TOKENS - countTokens(trigger) - 1;
  const before = room > 0 ? shortenToTokens(messageLine({ bot }, previous), room) : "";
  return before ? `${before}\n${trigger}` : trigger;
}
