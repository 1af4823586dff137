/**
 * @module
 * The reply job (and the judge job, which asks the judge first): under the trigger's claim (./with-claim.ts), put
 * the working sign up, answer (./answer.ts) or finish the answer an earlier attempt began to post (./post.ts), take
 * the sign down; the trigger is marked handled when no retry must try again.
 */
import { GiveUp } from "../errors.ts";
import { initiativeFits } from "../limits/initiative-cap.ts";
import { answer, type JobOutcome } from "./answer.ts";
import type { Claimed } from "./attempt.ts";
import { finishDraft } from "./post.ts";
import type { AnswerScope, JobScope } from "./scope.ts";
import { withClaim, type ClaimedWork } from "./with-claim.ts";
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

/** The answer to the trigger, under its claim (./with-claim.ts). */
const ANSWER: ClaimedWork<Claimed, JobOutcome> = {
  busy: "another attempt is answering this message",
  async claim({ rt, job }, token) {
    const claim = await rt.store.replies.claimReply(job.key, job.conversationId, job.trigger, token);
    if (claim.status === "busy") return claim;
    if (claim.status !== "claimed")
      return { status: "nothing", outcome: ({ done: "already_answered", covered: "covered" } as const)[claim.status] };
    return { status: "claimed", draft: claim.draft, read: claim };
  },
  async run(claimed, claim) {
    const { rt, job, where } = claimed;
    // The claim read the place's cached visibility in its one round trip: no second read for it.
    const cached = claim.visibility;
    const scope: AnswerScope = { ...claimed, ...(cached && !job.visibility ? { visibility: async () => cached } : {}) };
    return attemptAnswer(scope, claim).catch((err: unknown) => {
      // Retrying cannot help (opted-out number, unknown channel, no token): end the job for good.
      if (!(err instanceof GiveUp)) throw err;
      rt.log.warn("job_gave_up", { ...where, code: err.code });
      return "gave_up" as const;
    });
  },
  marksHandled: (outcome) => MARKS_HANDLED.has(outcome),
  ended({ rt, where }, outcome) {
    if (outcome !== "gave_up") rt.log.info("job_ended", { ...where, outcome });
  },
};

export function runReplyJob(scope: JobScope): Promise<JobOutcome> {
  return withClaim(scope, ANSWER);
}

/** An answer an earlier attempt began to post is finished as it is: never judged, generated or posted anew. */
async function attemptAnswer(scope: AnswerScope, claim: Claimed): Promise<JobOutcome> {
  if (scope.attempt.written) return (await heldSinceWritten(scope, claim)) ? "skipped" : finishDraft(scope);
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

/**
 * An unprompted answer written by an earlier attempt, none of it out yet (no part posted or begun, no stream), is held
 * as a new one would be once the bot has spoken since its message: another job's answer, written at the same time,
 * may have answered that very message (bench:chaos seed 1 at 20%: an initiative message answered twice).
 */
async function heldSinceWritten({ rt, job, attempt }: AnswerScope, claim: Claimed): Promise<boolean> {
  const { posted, postingSince, stream } = attempt.draft;
  if (job.reason !== "initiative" || posted.length > 0 || postingSince !== undefined || stream || !claim.state)
    return false;
  return !(await initiativeFits(rt, job, claim.state, false));
}
