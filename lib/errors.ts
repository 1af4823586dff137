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

/** Redis or QStash could not be reached: the webhook answers 503 so that the platform retries the delivery. */
export class DependencyUnavailable extends Error {
  readonly dependency: "redis" | "qstash";
  constructor(dependency: "redis" | "qstash", cause: unknown) {
    // Not the cause's message: an Upstash error's message carries the whole command, message text and all.
    super(`${dependency} is unavailable`, { cause });
    this.name = "DependencyUnavailable";
    this.dependency = dependency;
  }
}

/** Runs `call`, turning any failure into DependencyUnavailable for `dependency`. */
export async function using<T>(dependency: "redis" | "qstash", call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw new DependencyUnavailable(dependency, err);
  }
}
