/**
 * @module
 * The claim every answering job runs under (the reply and judge jobs' answer, an approval's continuation): the
 * trigger's claim taken for this attempt, or why there is nothing to do (done, covered, another attempt busy:
 * QStash tries again later); then the work, with the attempt that holds the claim and the draft earlier attempts
 * left (./attempt.ts); the trigger marked handled when no redelivery must try again; and on a failure the claim
 * handed back with what went out, so that QStash's retry finishes it instead of starting over.
 */
import type { Draft } from "../conversation/draft.ts";
import { RetryLater } from "../errors.ts";
import { errorMessage } from "../log.ts";
import { Attempt } from "./attempt.ts";
import type { AnswerScope, JobScope } from "./scope.ts";

/** Another attempt holds the claim: QStash tries again once it has run out. */
export class ClaimBusy extends RetryLater {}

/** What taking the claim found: the claim (with the draft and what it read), another attempt's, or nothing to do. */
type ClaimTaken<Read, Outcome> =
  | { status: "claimed"; draft: Draft; read: Read }
  | { status: "busy"; retryAfterSeconds: number }
  | { status: "nothing"; outcome: Outcome };

/** One job kind's side of the claim. */
export interface ClaimedWork<Read, Outcome> {
  /** Why a busy claim is retried, for the log (ClaimBusy). */
  busy: string;
  /** Takes the trigger's claim for the attempt `token`. */
  claim(scope: JobScope, token: string): Promise<ClaimTaken<Read, Outcome>>;
  /** The work under the claim. */
  run(scope: AnswerScope, read: Read): Promise<Outcome>;
  /** Whether a redelivery after `outcome` must not try again: the trigger is then marked handled. */
  marksHandled(outcome: Outcome): boolean;
  /** The job's last log line, however it ended but by an error. */
  ended(scope: JobScope, outcome: Outcome): void;
}

export async function withClaim<Read, Outcome>(scope: JobScope, work: ClaimedWork<Read, Outcome>): Promise<Outcome> {
  const { rt, job, where } = scope;
  const token = crypto.randomUUID();
  const taken = await work.claim(scope, token);
  if (taken.status === "busy") throw new ClaimBusy(work.busy, taken.retryAfterSeconds);
  if (taken.status === "nothing") {
    work.ended(scope, taken.outcome);
    return taken.outcome;
  }
  const attempt = new Attempt(rt, job, { token, draft: taken.draft });
  try {
    const outcome = await work.run({ ...scope, attempt }, taken.read);
    if (work.marksHandled(outcome)) await rt.store.replies.markHandled(job.key, job.trigger.id);
    work.ended(scope, outcome);
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
