/**
 * @module
 * After the last retry of a job, QStash calls back: an answer an attempt began to post is finished as it is (never
 * a new one, never an apology after it); otherwise the person who was owed an answer is told, once, that the bot
 * could not give one. The apology goes out like any answer (./post.ts), so a retried callback never posts it twice.
 */
import type { PostedOutcome } from "../conversation/draft.ts";
import { GiveUp } from "../errors.ts";
import { errorMessage } from "../log.ts";
import type { Claimed } from "./attempt.ts";
import { finishDraft, NothingPosted } from "./post.ts";
import type { JobScope } from "./scope.ts";
import { ClaimBusy, withClaim, type ClaimedWork } from "./with-claim.ts";

/** How the callback ended: what went out, nothing (`unanswered`), or no claim to take (answered or covered). */
type FailureOutcome = PostedOutcome | "unanswered" | "handled_before";

/** The callback's one message, under the answer's claim (./with-claim.ts). */
const FAILURE: ClaimedWork<Claimed, FailureOutcome> = {
  busy: "an attempt still holds this answer's claim",
  async claim({ rt, job }, token) {
    const claim = await rt.store.replies.claimReply(job.key, job.conversationId, job.trigger, token);
    if (claim.status === "busy") return claim;
    if (claim.status !== "claimed") return { status: "nothing", outcome: "handled_before" };
    return { status: "claimed", draft: claim.draft, read: claim };
  },
  async run(scope, claim) {
    const { job, attempt } = scope;
    // An answer some part of which reached the person is finished; one that never went out is not tried again.
    let outcome: PostedOutcome | undefined;
    if (attempt.written) outcome = await finishDraft(scope, { onlyIfStarted: true }).catch(nothingPosted);
    // A stream left showing part of an answer ends with the apology in that same message.
    if (!outcome && (job.required || attempt.draft.stream) && !claim.optedOut) {
      attempt.apologise();
      outcome = await finishDraft(scope);
    }
    return outcome ?? "unanswered";
  },
  marksHandled: (outcome) => outcome !== "answered",
  ended({ rt, job }, outcome) {
    if (outcome === "handled_before") return;
    rt.log.info("job_failure_handled", { platform: job.key.platform, trigger: job.trigger.id, outcome });
  },
};

/** True when the person was told; throws (QStash retries the callback) when telling them failed for now. */
export async function notifyFailure(scope: JobScope): Promise<boolean> {
  const { rt, job } = scope;
  try {
    return (await withClaim(scope, FAILURE)) === "apologised";
  } catch (err) {
    if (err instanceof ClaimBusy) throw err;
    rt.log.error("apology_failed", { platform: job.key.platform, trigger: job.trigger.id, message: errorMessage(err) });
    if (err instanceof GiveUp) return false;
    throw err;
  }
}

function nothingPosted(err: unknown): undefined {
  if (!(err instanceof NothingPosted)) throw err;
}
