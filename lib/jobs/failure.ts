/**
 * @module
 * After the last retry of a job, QStash calls back: an answer an attempt began to post is finished as it is (never
 * a new one, never an apology after it); otherwise the person who was owed an answer is told, once, that the bot
 * could not give one. The apology goes out like any answer (./post.ts), so a retried callback never posts it twice.
 */
import type { PostedOutcome } from "../conversation/draft.ts";
import { GiveUp, RetryLater } from "../errors.ts";
import { errorMessage } from "../log.ts";
import { claimAnswer } from "./attempt.ts";
import { finishDraft, NothingPosted } from "./post.ts";
import type { JobScope } from "./scope.ts";

/** True when the person was told; throws (QStash retries the callback) when telling them failed for now. */
export async function notifyFailure(jobScope: JobScope): Promise<boolean> {
  const { rt, job } = jobScope;
  const claimed = await claimAnswer(rt, job);
  if (claimed.status === "busy")
    throw new RetryLater("an attempt still holds this answer's claim", claimed.retryAfterSeconds);
  if (claimed.status !== "claimed") return false;
  const scope = { ...jobScope, attempt: claimed.attempt };
  const { attempt } = scope;
  const where = { platform: job.key.platform, trigger: job.trigger.id };
  try {
    // An answer some part of which reached the person is finished; one that never went out is not tried again.
    let outcome: PostedOutcome | undefined;
    if (attempt.written) outcome = await finishDraft(scope, { onlyIfStarted: true }).catch(nothingPosted);
    // A stream left showing part of an answer ends with the apology in that same message.
    if (!outcome && (job.required || attempt.draft.stream) && !claimed.claim.optedOut) {
      attempt.apologise();
      outcome = await finishDraft(scope);
    }
    if (outcome !== "answered") await rt.store.replies.markHandled(job.key, job.trigger.id);
    rt.log.info("job_failure_handled", { ...where, outcome: outcome ?? "unanswered" });
    return outcome === "apologised";
  } catch (err) {
    await attempt.release().catch(() => undefined);
    rt.log.error("apology_failed", { ...where, message: errorMessage(err) });
    if (err instanceof GiveUp) return false;
    throw err;
  }
}

function nothingPosted(err: unknown): undefined {
  if (!(err instanceof NothingPosted)) throw err;
}
