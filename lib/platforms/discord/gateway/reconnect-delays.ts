/**
 * @module
 * How long the Gateway client (./session.ts) waits before it connects again: a backoff that doubles with each
 * failure, Discord's 1–5 s after a session it may not resume, an hour after a fatal close; and how many resumes
 * in a row may fail before the session is given up.
 */

const MAX_BACKOFF_MS = 60_000;
const BASE_BACKOFF_MS = 1_000;
/** Discord asks for a random 1–5 s wait before identifying again after a non-resumable INVALID_SESSION. */
const INVALID_SESSION_MIN_WAIT_MS = 1_000;
const INVALID_SESSION_JITTER_MS = 4_000;
/**
 * Resumes in a row that never reached RESUMED before the session is dropped: the resume URL may be dead (a restart
 * after a long sleep, a Gateway node gone), and Discord says to identify anew at the configured URL then.
 */
export const MAX_FAILED_RESUMES = 3;
/**
 * After a fatal close the fix happens elsewhere (a new token, the intent switched on in the portal): try again
 * after this long. 24 tries a day stay far inside the IDENTIFY budget.
 */
export const FATAL_RETRY_AFTER_MS = 60 * 60 * 1000;

/** The wait after the `failures`-th failure in a row: doubling up to a minute, then jittered into its upper half. */
export function backoffMs(failures: number, random: () => number): number {
  const ceiling = Math.min(BASE_BACKOFF_MS * 2 ** (failures - 1), MAX_BACKOFF_MS);
  return Math.round(ceiling * (0.5 + random() / 2));
}

export function invalidSessionWaitMs(random: () => number): number {
  return INVALID_SESSION_MIN_WAIT_MS + Math.round(random() * INVALID_SESSION_JITTER_MS);
}
