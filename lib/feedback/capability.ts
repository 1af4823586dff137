/**
 * @module
 * Feedback on answers (docs/tools.md, "Feedback on answers"): where a place turned it on (`/parley feedback on`), the
 * final message of each answer carries 👍 / 👎 controls, put on by an edit once the answer is out (never a new
 * message). A control's id says all a press needs: the verdict, and whether the answer was unprompted (the decider
 * spoke without being addressed: an initiative or a rescue), for a 👎 on such an answer is "not you" feedback
 * (lib/decide/not-you.ts) and on any other a verdict on its quality. A press is answered with the platform's own
 * private note (lib/approvals/capability.ts `answer`).
 */
import type { ControlPress } from "../approvals/capability.ts";
import type { InboundMessage, ReplyTarget } from "../message.ts";

export type FeedbackVerdict = "up" | "down";

/** What a feedback control's id starts with; every platform's id is this control id, behind its own prefix. */
export const FEEDBACK_ID_PREFIX = "feedback:";
const PROMPTED = "p";
const UNPROMPTED = "u";

/** A feedback control: its id (what a press sends back), and the label it shows. */
export interface FeedbackControl {
  id: string;
  label: string;
  verdict: FeedbackVerdict;
}

/** The answer's two controls, 👍 first; `unprompted`: the decider spoke without being addressed. */
export function feedbackControls(unprompted: boolean): readonly [FeedbackControl, FeedbackControl] {
  const mark = unprompted ? UNPROMPTED : PROMPTED;
  return [
    { id: `${FEEDBACK_ID_PREFIX}up:${mark}`, label: "👍", verdict: "up" },
    { id: `${FEEDBACK_ID_PREFIX}down:${mark}`, label: "👎", verdict: "down" },
  ];
}

/** A press's control id read as feedback; null for any other control (an approval's). */
export function readFeedbackId(controlId: string): { verdict: FeedbackVerdict; unprompted: boolean } | null {
  const match = /^feedback:(up|down):([pu])$/u.exec(controlId);
  if (!match) return null;
  return { verdict: match[1] as FeedbackVerdict, unprompted: match[2] === UNPROMPTED };
}

/** Where an answer can carry feedback controls, and how a 👎 on an unprompted one becomes "not you" feedback. */
interface FeedbackCapability<Target extends ReplyTarget, Ctx> {
  /**
   * Puts `controls` under message `ref`, which shows `text` (Markdown: the answer's last part, as posted). Safe to
   * repeat.
   */
  offer(ctx: Ctx, target: Target, ref: string, text: string, controls: readonly FeedbackControl[]): Promise<void>;
  /**
   * The "not you" feedback of a 👎 pressed on an unprompted answer, as the platform records a 👎 reaction on it (the
   * same message id, so that a reaction and a press by the same person count once); `now`: when it was pressed.
   */
  notYou(press: ControlPress, now: number): InboundMessage;
}

/** The adapter's optional `feedback` (lib/platforms/adapter.ts extends this). */
export interface WithFeedback<Target extends ReplyTarget, Ctx> {
  readonly feedback?: FeedbackCapability<Target, Ctx>;
}
