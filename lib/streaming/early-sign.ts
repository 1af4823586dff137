/**
 * @module
 * The working sign put up by the webhook, right after its acknowledgement (the request's waitUntil), instead of by
 * the answer's job: under load a job starts seconds after the message, and the person should see within a second
 * that the bot is on it. The ack keeps its one Redis round trip: the sign's call budget and its mark come after.
 * The mark (one SET) tells the job, in the claim's own read, that the sign is up: the job then only takes it down
 * (lib/streaming/answer.ts whileWorking), when the answer shows or the job ends, [SKIP] included. It is set once
 * the sign's budget is taken and before its call, so that a job starting at once (QStash is quick) does not take
 * that budget a second time; the job takes the sign down only when its answer shows, long after the sign's call.
 * A job that looked before the mark puts the sign up itself and finds it there (Slack's `already_reacted`).
 */
import { errorMessage } from "../log.ts";
import type { Replier } from "../pipeline.ts";
import type { Job } from "../queue/job.ts";
import type { Runtime } from "../runtime.ts";

/** Puts the job's working sign up and marks it so; never throws (the job shows its own when this failed). */
export async function showWorkingEarly(rt: Runtime, job: Job, replier: Replier): Promise<void> {
  if (!rt.settings.SHOW_WORKING) return;
  try {
    await replier.working(job, { beforeShowing: () => rt.store.replies.markSignUp(job.key, job.trigger.id) });
  } catch (err) {
    rt.log.warn("working_sign_failed", { platform: job.key.platform, where: "webhook", message: errorMessage(err) });
  }
}
