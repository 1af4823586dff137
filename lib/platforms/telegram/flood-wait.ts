/**
 * @module
 * Telegram's flood control waited out inside the job, for a call the answer cannot do without (a message of the
 * answer, the last edit of a streamed one). Telegram paces a bot to about a message a second per chat and twenty a
 * minute per group, and answers a call past that with 429 and `retry_after`, most often a second or three. Handed to
 * QStash as a RetryLater, each of those waits spends one of the job's three retries: two answers in a row in a
 * group can meet several, and the fourth cost the answer (an apology instead, itself paced). Waiting a few seconds
 * here costs the Worker no CPU time. Only a longer wait goes back to QStash, which comes back after it (Retry-After).
 */
import { RetryLater } from "../../errors.ts";
import { callTelegram, type TelegramArgs, type TelegramCall, type TelegramMethod } from "./api.ts";

/**
 * At most this long waited out per call, all waits together: Telegram's pace in one chat many times over, and well
 * inside the answer's 90 s claim (lib/conversation/reply-store.ts), which the job renews every 30 s.
 */
export const FLOOD_WAIT_IN_JOB_MAX_SECONDS = 15;

/** callTelegram, waiting out flood control while it asks for no more than FLOOD_WAIT_IN_JOB_MAX_SECONDS in all. */
export async function callTelegramPaced<M extends TelegramMethod>(call: TelegramCall, method: M, args: TelegramArgs<M>): Promise<unknown> {
  let waited = 0;
  for (;;) {
    try {
      return await callTelegram(call, method, args);
    } catch (err) {
      if (!(err instanceof RetryLater) || waited + err.retryAfterSeconds > FLOOD_WAIT_IN_JOB_MAX_SECONDS) throw err;
      waited += err.retryAfterSeconds;
      await new Promise((resolve) => setTimeout(resolve, err.retryAfterSeconds * 1000));
    }
  }
}
