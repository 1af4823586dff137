/**
 * @module
 * The reply job (and the judge job, which asks the judge first): claim the trigger's answer for this attempt, put
 * the working sign up, answer (./answer.ts) or finish the answer an earlier attempt began to post (./post.ts), take
 * the sign down, and mark the trigger handled when no retry must try again. A failing attempt hands its claim back
 * with what it got out, so that QStash's retry finishes it instead of starting over.
 */
import { GiveUp, RetryLater } from "../errors.ts";
import { errorMessage } from "../log.ts";
import { answer, type JobOutcome } from "./answer.ts";
import { claimAnswer } from "./attempt.ts";
import { finishDraft } from "./post.ts";
import type { AnswerScope, JobScope } from "./scope.ts";
import { showWorking, takeSignDown } from "./working-sign.ts";

/** Outcomes after which a redelivery of the job must not try again. ("answered" is marked with the bot's turn.) */
const MARKS_HANDLED: ReadonlySet<JobOutcome> = new Set([
  "forgotten",
  "rate_limited",
  "apologised",
  "skipped",
  "judge_no",
  "conversation_gone",
  "unreachable",
  "superseded",
  "gave_up",
  "over_budget",
]);

export async function runReplyJob(jobScope: JobScope): Promise<JobOutcome> {
  const { rt, job, where } = jobScope;
  const claimed = await claimAnswer(rt, job);
  if (claimed.status === "busy")
    throw new RetryLater("another attempt is answering this message", claimed.retryAfterSeconds);
  if (claimed.status !== "claimed") {
    const outcome = ({ done: "already_answered", covered: "covered" } as const)[claimed.status];
    rt.log.info("job_ended", { ...where, outcome });
    return outcome;
  }
  const { attempt, claim } = claimed;
  // The claim read the place's cached visibility in its one round trip: no second read for it.
  const cached = claim.visibility;
  const scope: AnswerScope = {
    ...jobScope,
    attempt,
    ...(cached && !jobScope.job.visibility ? { visibility: async () => cached } : {}),
  };
  try {
    const outcome = await attemptAnswer(scope, claim).catch((err: unknown) => {
      // Retrying cannot help (opted-out number, unknown channel, no token): end the job for good.
      if (!(err instanceof GiveUp)) throw err;
      rt.log.warn("job_gave_up", { ...where, code: err.code });
      return "gave_up" as const;
    });
    if (MARKS_HANDLED.has(outcome)) await rt.store.replies.markHandled(job.key, job.trigger.id);
    if (outcome !== "gave_up") rt.log.info("job_ended", { ...where, outcome });
    return outcome;
  } catch (err) {
    await attempt
      .release()
      .catch((releaseErr: unknown) =>
        rt.log.error("claim_release_failed", { ...where, message: errorMessage(releaseErr) }),
      );
    throw err;
  }
}

/** An answer an earlier attempt began to post is finished as it is: never judged, generated or posted anew. */
async function attemptAnswer(scope: AnswerScope, claim: Parameters<typeof answer>[1]): Promise<JobOutcome> {
  if (scope.attempt.written) return finishDraft(scope);
  const sign = showWorking(scope, claim.signUp);
  let failed = false;
  try {
    return await answer(scope, claim, sign);
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    await takeSignDown(scope, sign, failed);
  }
}
