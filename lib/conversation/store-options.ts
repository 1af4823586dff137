/**
 * @module
 * What the conversation store and the reply store share: their settings, how long marks and claims live, how a log
 * is trimmed.
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
/** A job that dies holds its claim this long (QStash's first retry then waits for it); a long one renews it. */
export const CLAIM_TTL_SECONDS = 90;
/**
 * The longest a conversation lives, however busy its place: the next message after this ends it (a trigger starts
 * a new one). Bounded, so that the index of the places a person spoke in (`spoke:` in lib/keys.ts) can outlive
 * every conversation it names without anyone else's message having to touch it.
 */
export const MAX_CONVERSATION_SECONDS = 86_400;

/**
 * How long a person's index of places lives after they were last added to it: past the end of any conversation
 * they were added for. It ends at most MAX_CONVERSATION_SECONDS after it started (before they spoke), plus its
 * inactivity timeout, and answers still being written then each keep it for one more timeout (the jobs of QStash's
 * last retries come within an hour).
 */
export function spokeTtlSeconds(conversationTtlSeconds: number): number {
  return MAX_CONVERSATION_SECONDS + 2 * conversationTtlSeconds + 2 * DEDUPE_TTL_SECONDS;
}

/** A log over its cap drops this share of the cap at once, so a long conversation is trimmed every tenth message. */
const TRIM_SHARE = 0.1;

/** How many messages stay after a trim: a batch below the cap, so that the next trims come a batch later. */
export function keptAfterTrim(cap: number): number {
  return cap + 1 - Math.max(1, Math.floor(cap * TRIM_SHARE));
}
