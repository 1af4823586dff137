/**
 * @module
 * When a conversation outgrows its share of the prompt budget, which of its oldest messages move into the running
 * summary. Only messages an answer has already seen are folded (a pending job's trigger stays in the log), and the
 * newest ones always stay, so the prompt keeps a verbatim tail after the summary.
 */
import { countTokens, MESSAGE_OVERHEAD_TOKENS } from "../context/tokens.ts";
import { recordLine, speakerName } from "../context/turns.ts";
import type { StoredMessage } from "../message.ts";

/** The summary never takes more than this, whatever the budget. */
const MAX_SUMMARY_TOKENS = 600;
/** Share of the prompt budget the summary may take. */
const SUMMARY_SHARE = 0.15;
/** Fold once the stored messages would take more than this share of the budget... */
const FOLD_AT_SHARE = 0.5;
/** ...down to this share, so that a fold happens every few turns rather than at every one. */
const KEEP_SHARE = 0.25;
/** A reply needs some verbatim context, however long the messages. */
const MIN_KEPT_MESSAGES = 4;

export function summaryMaxTokens(budgetTokens: number): number {
  return Math.min(MAX_SUMMARY_TOKENS, Math.floor(budgetTokens * SUMMARY_SHARE));
}

/** As the prompt carries it (a person's record; the bot's plain text is shorter): an upper bound. */
function messageTokens(m: StoredMessage): number {
  return countTokens(recordLine({ author: speakerName(m.authorName), text: m.text })) + MESSAGE_OVERHEAD_TOKENS;
}

/** The oldest messages to fold (oldest first); empty when the conversation still fits. */
export function messagesToFold(
  messages: StoredMessage[],
  answeredThrough: number,
  budgetTokens: number,
): StoredMessage[] {
  const sizes = messages.map(messageTokens);
  let remaining = sizes.reduce((a, b) => a + b, 0);
  if (remaining <= budgetTokens * FOLD_AT_SHARE) return [];
  let count = 0;
  while (
    count < messages.length - MIN_KEPT_MESSAGES &&
    remaining > budgetTokens * KEEP_SHARE &&
    messages[count]!.ts <= answeredThrough
  ) {
    remaining -= sizes[count]!;
    count++;
  }
  // The log is trimmed by timestamp: never cut between two messages of the same millisecond.
  while (count > 0 && count < messages.length && messages[count]!.ts === messages[count - 1]!.ts) count--;
  return messages.slice(0, count);
}
