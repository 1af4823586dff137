/**
 * @module
 * After the last retry of a job, QStash calls back: an answer an attempt began to post is finished as it is (never
 * a new one, never an apology after it); otherwise the person who was owed an answer is told, once, that the bot
 * could not give one. The apology goes out like any answer (lib/delivery.ts), so a retried callback never
 * posts it twice.
 */
import type { PostedOutcome } from "../lib/conversation/draft.ts";
import { finishDraft, NothingPosted, type Attempt } from "../lib/delivery.ts";
import { APOLOGY } from "../lib/notices.ts";
import { GiveUp, RetryLater } from "../lib/errors.ts";
import { errorMessage } from "../lib/log.ts";
import type { Replier } from "../lib/pipeline.ts";
import type { Job } from "../lib/queue/job.ts";
import type { Runtime } from "../lib/runtime.ts";

/** True when the person was told; throws (QStash retries the callback) when telling them failed for now. */
export async function notifyFailure(rt: Runtime, job: Job, replier: Replier): Promise<boolean> {
  const token = crypto.randomUUID();
  const claim = await rt.store.replies.claimReply(job.key, job.conversationId, job.trigger, token);
  if (claim.status === "busy") throw new RetryLater("an attempt still holds this answer's claim", claim.retryAfterSeconds);
  if (claim.status !== "claimed") return false;
  const attempt: Attempt = { token, draft: claim.draft, renewedAt: rt.now() };
  const where = { platform: job.key.platform, trigger: job.trigger.id };
  try {
    // An answer some part of which reached the person is finished; one that never went out is not tried again.
    let outcome: PostedOutcome | undefined;
    if (attempt.draft.text !== undefined) outcome = await finishDraft(rt, job, replier, attempt, { onlyIfStarted: true }).catch(nothingPosted);
    // A stream left showing part of an answer ends with the apology in that same message.
    const { stream } = attempt.draft;
    if (!outcome && (job.required || stream) && (await replier.canReach(job))) {
      attempt.draft = { ...(stream ? { stream } : {}), posted: [], text: APOLOGY, outcome: "apologised" };
      outcome = await finishDraft(rt, job, replier, attempt);
    }
    if (outcome !== "answered") await rt.store.replies.markHandled(job.key, job.trigger.id);
    rt.log.info("job_failure_handled", { ...where, outcome: outcome ?? "unanswered" });
    return outcome === "apologised";
  } catch (err) {
    await rt.store.replies.releaseClaim(job.key, job.trigger.id, token, attempt.draft).catch(() => undefined);
    rt.log.error("apology_failed", { ...where, message: errorMessage(err) });
    if (err instanceof GiveUp) return false;
    throw err;
  }
}

function nothingPosted(err: unknown): undefined {
  if (!(err instanceof NothingPosted)) throw err;
}
