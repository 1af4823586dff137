/**
 * @module
 * What the conversation store and the reply store share: their settings, how long marks live, how a log is trimmed.
 */
import type { ConversationKey } from "../message.ts";

export interface StoreOptions {
  prefix: string;
  /** Inactivity timeout of the place's conversations, in seconds. */
  ttlSeconds: (key: ConversationKey) => number;
  maxMessages: number;
}

/**
 * Seen marks, reply records and their drafts live this long: longer than platform retries (Slack's last comes after
 * about 5 minutes), QStash's dedupe window and its last retry of a job (about 33 minutes after the first attempt).
 */
export const DEDUPE_TTL_SECONDS = 3_600;
/** A log over its cap drops this share of the cap at once, so a long conversation is trimmed every tenth message. */
const TRIM_SHARE = 0.1;

/** How many messages stay after a trim: a batch below the cap, so that the next trims come a batch later. */
export function keptAfterTrim(cap: number): number {
  return cap + 1 - Math.max(1, Math.floor(cap * TRIM_SHARE));
}
