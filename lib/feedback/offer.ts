/**
 * @module
 * An answer's feedback controls (./capability.ts) go on once the answer is out whole (lib/jobs/post.ts: after its
 * stream ended and its last part was posted), on its last message, where the place turned feedback on; never on a
 * notice, nor on a question that asks to approve a call (it carries the approval's controls). A platform that
 * refuses the edit leaves the answer as it is: feedback is never worth an answer's failure.
 */
import type { AnswerScope } from "../jobs/scope.ts";
import { errorMessage } from "../log.ts";
import { feedbackControls } from "./capability.ts";

/** The decider's reasons for speaking unaddressed (lib/decide/initiative.ts, lib/rescue/job.ts). */
const UNPROMPTED_REASONS: ReadonlySet<string> = new Set(["initiative", "rescue"]);

export async function offerFeedback(scope: AnswerScope): Promise<void> {
  const { rt, job, replier, attempt, where } = scope;
  const ref = attempt.draft.posted.at(-1);
  if (!job.feedback || ref === undefined || attempt.draft.approval) return;
  const unprompted = UNPROMPTED_REASONS.has(job.reason);
  const controls = feedbackControls(unprompted);
  const offered = await replier.offerFeedback(job, ref, attempt.draft.text ?? "", controls).catch((err: unknown) => {
    rt.log.warn("feedback_unoffered", { ...where, message: ref, error: errorMessage(err) });
    return false;
  });
  if (offered) rt.log.info("feedback_offered", { ...where, message: ref, unprompted });
}
