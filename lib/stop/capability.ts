/**
 * @module
 * Stop on an answer as it is written (docs/streaming.md, "Stopping an answer"): while a platform's stream shows the
 * answer growing, its message carries a Stop control whose id names the answer (its trigger) and who asked. A press
 * is the platform's signed interaction, read into a press of that id (lib/approvals/capability.ts `ControlPress`);
 * lib/stop/press.ts decides it the same way on every platform: the asker's press (or, where the platform says so,
 * a place admin's) sets the answer's Stop mark, which the job reads in the budget calls its stream makes anyway.
 */
import type { ControlPress } from "../approvals/capability.ts";

const STOP_ID_PREFIX = "stop:";

/** What a Stop control names: the answer's trigger, and who asked for it. */
export interface StopOf {
  triggerId: string;
  askerId: string;
}

/** The id of the Stop on the answer to `triggerId`, asked by `authorId` (a trigger id may hold `:`, an asker's not). */
export const stopControlId = (answer: { triggerId: string; authorId: string }): string =>
  `${STOP_ID_PREFIX}${answer.triggerId}:${answer.authorId}`;

/** A press's control id read as a Stop; null for any other control (an approval's, feedback's). */
export function readStopId(controlId: string): StopOf | null {
  const match = /^stop:(.+):([^:]+)$/u.exec(controlId);
  return match ? { triggerId: match[1]!, askerId: match[2]! } : null;
}

/** Who besides the asker may stop an answer: absent, nobody (the asker alone). */
interface StopCapability<Ctx> {
  /** Whether the presser may manage the place (as for its settings), so that they may stop anyone's answer. */
  mayStopAny(ctx: Ctx, press: ControlPress): Promise<boolean>;
}

/** The adapter's optional `stop` (lib/platforms/adapter.ts extends this). */
export interface WithStop<Ctx> {
  readonly stop?: StopCapability<Ctx>;
}
