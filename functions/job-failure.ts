/**
 * @module
 * After the last retry of a job, tell the person who was owed an answer that the bot could not give one, so nobody
 * is left waiting. Only for required answers, and only when no answer went out.
 */
import { errorMessage } from "../lib/log.ts";
import type { Replier } from "../lib/pipeline.ts";
import type { Job } from "../lib/queue/job.ts";
import type { Runtime } from "../lib/runtime.ts";

export const APOLOGY = "Sorry, I couldn't answer that just now. Please try again in a moment.";

export async function notifyFailure(rt: Runtime, job: Job, replier: Replier): Promise<boolean> {
  if (!job.required || !(await replier.canReach(job))) return false;
  const claim = await rt.store.claimReply(job.key, job.conversationId, job.trigger);
  if (claim.status !== "claimed" && claim.status !== "gone") return false;
  try {
    await replier.send(job, APOLOGY);
    await rt.store.markHandled(job.key, job.trigger.id);
    return true;
  } catch (err) {
    rt.log.error("apology_failed", { trigger: job.trigger.id, message: errorMessage(err) });
    return false;
  }
}
