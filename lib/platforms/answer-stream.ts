/**
 * @module
 * What the core and a platform share about one answer in progress: the stream that shows it as it is written, who
 * asked (for signs on their message), and the working sign. The capability that opens a stream is the adapter's
 * (lib/platforms/adapter.ts `StreamingCapability`).
 */
import type { StreamState } from "../message.ts";

/** One answer being shown as it is written. Its `state` changes with each call. */
export interface AnswerStream {
  readonly state: StreamState;
  /** The person stopped it with the platform's own Stop (Slack's, on its stream): the answer ends as it stands. */
  readonly personStopped?: boolean;
  /**
   * A message this stream posts (opening in `edit` mode, or the one `finish` sends) cannot be looked for and shows
   * twice if posted again (Telegram, Teams): the core makes its state durable as soon as the message is there.
   */
  readonly unfindable?: boolean;
  /** Shows `text`, the whole answer so far. */
  show(text: string): Promise<void>;
  /** Leaves the message holding exactly `text` (the answer's first part), the stream ended. */
  finish(text: string): Promise<void>;
  /** Ends the stream as it stands (an attempt failed); never throws. */
  close(): Promise<void>;
}

/** When an earlier attempt began to open an answer's stream (ms), and the texts it opened with, unheard from since. */
export interface UnsureOpen {
  since: number;
  openings: readonly string[];
}

/** Who asked: the trigger message and its author, for signs on the message and streams addressed to the person. */
export interface AnswerFor {
  triggerId: string;
  authorId: string;
  /** An earlier attempt began to open this answer's stream and never heard back: look before opening. */
  unsure?: UnsureOpen;
  /** The webhook put the working sign up already (lib/jobs/working-sign.ts): `working` only takes it down. */
  signUp?: boolean;
  /**
   * The webhook's sign (lib/jobs/working-sign.ts): the core's mark that the sign is up, for `callBudget` to set in the
   * same round trip as it takes the sign's budget, before the call that shows it. Opaque to the platform.
   */
  signMark?: SignMark;
}

/** A mark the core keeps in Redis (its key and how long it lasts). */
export interface SignMark {
  key: string;
  ttlSeconds: number;
}

/** A sign that the bot is working on an answer (Slack status or reaction, Discord typing); `stop` never throws. */
export interface WorkingSign {
  stop(): Promise<void>;
}
