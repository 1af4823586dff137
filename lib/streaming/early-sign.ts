/**
 * @module
 * The working sign put up by the webhook, right after its acknowledgement (the request's waitUntil), instead of by
 * the answer's job: under load a job starts seconds after the message, and the person should see within a second
 * that the bot is on it. The ack keeps its one Redis round trip: the sign's call budget and its mark come after.
 * The job says so (`signByWebhook`, set before it is published), so the job never puts a sign up itself. The mark
 * (one SET, once the budget is taken and before the call) tells the job that the sign is up: the job reads it in
 * its claim's MGET, or (when it claimed first: QStash is quick) once more when it takes the sign down, when the
 * answer shows or the job ends ([SKIP] included). A failed attempt forgets the mark, so retries leave it alone.
 */
import { errorMessage } from "../log.ts";
import type { Replier } from "../pipeline.ts";
import type { Job } from "../queue/job.ts";
import type { Runtime } from "../runtime.ts";

/**
 * Puts the job's working sign up and marks it so (the job is one published with `signByWebhook`, which SHOW_WORKING
 * allowed). Never throws: a sign that failed is logged, and the person sees the answer without one, since the job
 * puts none up itself.
 */
export async function showWorkingEarly(rt: Runtime, job: Job, replier: Replier): Promise<void> {
  try {
    await replier.working(job, { beforeShowing: () => rt.store.replies.markSignUp(job.key, job.trigger.id) });
  } catch (err) {
    rt.log.warn("working_sign_failed", { platform: job.key.platform, where: "webhook", message: errorMessage(err) });
  }
}
