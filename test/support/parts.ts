/**
 * @module
 * A PartProgress for tests of the platforms' `send`: it keeps what the core would keep durable (which parts were
 * started, which were accepted and as what) in memory, so a test can read it back or resume from it.
 */
import type { PartProgress } from "../../lib/message.ts";

let seq = 0;

export interface RecordedProgress extends PartProgress {
  /** The indexes whose call began, in order. */
  readonly started: number[];
  /** The id of each accepted part by index (a sparse array when resuming). */
  readonly accepted: string[];
}

/** A fresh answer (its own answer id unless given), or one resumed at `from` with an unconfirmed call `unsure`. */
export function partProgress(
  opts: { answerId?: string; from?: number; unsure?: { since: number } } = {},
): RecordedProgress {
  seq += 1;
  const started: number[] = [];
  const accepted: string[] = [];
  return {
    answerId: opts.answerId ?? `answer-${Date.now()}-${seq}`,
    from: opts.from ?? 0,
    ...(opts.unsure ? { unsure: opts.unsure } : {}),
    started,
    accepted,
    async starting(index) {
      started.push(index);
    },
    async posted(index, id) {
      accepted[index] = id;
    },
  };
}
