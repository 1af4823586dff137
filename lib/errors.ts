/**
 * @module
 * The two ways an outside call can fail that the job flow treats differently from a plain error.
 */

/** The remote side asked us to wait (HTTP 429, Retry-After): the job is retried after `retryAfterSeconds`. */
export class RetryLater extends Error {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.name = "RetryLater";
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Retrying cannot help (opted-out number, unknown channel, revoked token): the job ends without retry. */
export class GiveUp extends Error {
  readonly code: string;
  constructor(message: string, code: string) {
    super(message);
    this.name = "GiveUp";
    this.code = code;
  }
}
