/**
 * @module
 * An approval's record and the states it goes through (docs/tools.md, "Actions that need approval"): one Redis hash
 * under the id of the bot's message that asks (lib/keys.ts `approvalKey`), `pending`, then `approved`, `denied`,
 * `expired` or, answered by a reply, `closed`, each reached once, by one script; `done` once its message is out. The
 * scripts that open and answer it are in ./answer-scripts.ts, the continuation's look in ./settle-script.ts; both
 * run on the same two keys.
 */

/** `done`: its result or cancellation is out; nothing publishes its continuation again. */
/** `closed`: on SMS, a message from either side came before any YES or NO (`closeAsked`). */
export const STATES = ["pending", "approved", "denied", "expired", "closed", "done"] as const;
export type ApprovalState = (typeof STATES)[number];

/** Every script's keys: the approval's `record` and its `window`. */
export const RECORD_KEYS = { record: "key", window: "key" } as const;
