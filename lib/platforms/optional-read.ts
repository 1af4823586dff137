/**
 * @module
 * Optional platform reads: what an answer can go without (the place's history, a thread's parent, the lookup of a
 * part an earlier attempt may have posted, a workspace's domain). Each goes through `optionalRead`: a read that
 * fails oddly (HTTP 5xx, no answer within OPTIONAL_READ_TIMEOUT_MS, a body that is not JSON, JSON of another shape,
 * a platform error code Parley does not know, a dropped connection) logs one line, `<read>_unavailable` with its
 * `reason` (and the HTTP status or the platform's code, never text), and gives nothing: the answer goes out without
 * it. What the caller acts on passes through as it is: RetryLater (a spent call budget, a 429: the job waits) and
 * GiveUp (a refusal the platform will repeat: a missing scope, no such channel).
 */
import { withinMs } from "../deadline.ts";
import { GiveUp, RetryLater } from "../errors.ts";
import type { LogFields, Logger } from "../log.ts";

/** Longer than a platform's read takes when it is well; a read this slow is gone without (the answer is not). */
export const OPTIONAL_READ_TIMEOUT_MS = 5_000;

/** Why an optional read gave nothing. */
type ReadFailure =
  | "http_5xx"
  | "http_error"
  | "timeout"
  | "not_json"
  | "unexpected_shape"
  | "platform_error"
  | "network"
  | "failed";

/** A platform's answer that is not one: an HTTP error, a body that is not JSON, or JSON without the answer's fields. */
export class PlatformAnswerError extends Error {
  readonly reason: Extract<ReadFailure, "http_5xx" | "http_error" | "not_json" | "unexpected_shape">;
  readonly status: number | undefined;
  constructor(message: string, reason: PlatformAnswerError["reason"], status?: number) {
    super(message);
    this.name = "PlatformAnswerError";
    this.reason = reason;
    this.status = status;
  }
}

/** An HTTP status that is not a success, as a read failure: 5xx, or another error the client has no name for. */
export function httpFailure(what: string, status: number): PlatformAnswerError {
  return new PlatformAnswerError(`${what} answered HTTP ${status}`, status >= 500 ? "http_5xx" : "http_error", status);
}

class ReadTimedOut extends Error {}

/** Where the read's log line is written and what else it names (the place, the trigger: ids only). */
export interface ReadLog {
  log: Logger;
  fields?: LogFields;
}

/** `work`'s result, or undefined (logged `<read>_unavailable`) when it failed in any way but RetryLater and GiveUp. */
export async function optionalRead<T>(read: string, on: ReadLog, work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await withinMs(work(), OPTIONAL_READ_TIMEOUT_MS, () => {
      throw new ReadTimedOut();
    });
  } catch (err) {
    if (err instanceof RetryLater || err instanceof GiveUp) throw err;
    on.log.warn(`${read}_unavailable`, { ...on.fields, ...readFailure(err) });
    return undefined;
  }
}

/** What a log line may say of why a read failed: its reason, and the HTTP status or the platform's code. */
function readFailure(err: unknown): { reason: ReadFailure; status?: number; code?: string } {
  if (err instanceof PlatformAnswerError)
    return { reason: err.reason, ...(err.status !== undefined ? { status: err.status } : {}) };
  if (err instanceof ReadTimedOut) return { reason: "timeout" };
  if (!(err instanceof Error)) return { reason: "failed" };
  if (err.name === "TimeoutError" || err.name === "AbortError") return { reason: "timeout" };
  // zod's errors (a schema of the answer that did not hold) and JSON.parse's.
  if (err.name === "$ZodError" || err.name === "ZodError") return { reason: "unexpected_shape" };
  if (err instanceof SyntaxError) return { reason: "not_json" };
  // fetch's own failure: the connection refused or dropped.
  if (err instanceof TypeError) return { reason: "network" };
  // A platform's own error code that Parley has no meaning for (Slack's `ok:false` with an unknown `error`).
  const code = (err as { code?: unknown }).code;
  return typeof code === "string" ? { reason: "platform_error", code: loggableCode(code) } : { reason: "failed" };
}

/** A platform's code as a log line may carry it: a short word, never whatever else the body held. */
const loggableCode = (code: string): string => (/^[\w.-]{1,60}$/.test(code) ? code : "unreadable");
