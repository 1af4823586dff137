/**
 * @module
 * A platform's short rate-limit wait, waited out inside the job for a call the answer cannot do without (a part of
 * the answer, a streamed answer's first post and its last edit or stop). Handed to QStash as a RetryLater, each wait
 * spends one of the reply job's three retries: a few in a row (two answers in a row in one place, Discord's per-route
 * buckets, Telegram's per-chat pace) lose the answer. Waiting a few seconds here costs the Worker no CPU time. Only a
 * longer wait goes back to QStash, which comes back after it (Retry-After).
 *
 * Only a platform's own 429 is waited out (PlatformRateLimited): the platforms document it as a refusal that did
 * nothing (Slack's `ratelimited`, Discord's `retry_after`, Telegram's `retry_after`, Twilio's 20429 "never
 * processed and always safe to retry"), so calling again cannot post twice. Our own per-tenant call budget
 * (lib/limits/api-budget.ts) and every other RetryLater go back to QStash as before.
 */
import { RetryLater } from "../errors.ts";

/**
 * At most this long waited out per call, all its waits together: a platform's per-place pace many times over
 * (Telegram a second or three, Discord's buckets often under a second), and well inside the answer's 90 s claim
 * (lib/conversation/reply-store.ts), which the job renews every 30 s and before each part.
 */
export const RATE_LIMIT_WAIT_IN_JOB_MAX_SECONDS = 15;

/** The platform answered 429: the call was refused and did nothing; it may be made again after the wait. */
export class PlatformRateLimited extends RetryLater {
  constructor(message: string, retryAfterSeconds: number) {
    super(message, retryAfterSeconds);
    this.name = "PlatformRateLimited";
  }
}

/** Runs `call`, calling it again after each PlatformRateLimited while the waits add up to the maximum at most. */
export async function waitingOutRateLimits<T>(call: () => Promise<T>): Promise<T> {
  let waited = 0;
  for (;;) {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof PlatformRateLimited) || waited + err.retryAfterSeconds > RATE_LIMIT_WAIT_IN_JOB_MAX_SECONDS)
        throw err;
      waited += err.retryAfterSeconds;
      await new Promise((resolve) => setTimeout(resolve, err.retryAfterSeconds * 1000));
    }
  }
}
