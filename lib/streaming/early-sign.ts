/**
 * @module
 * The working sign put up by the webhook, right after its acknowledgement (the request's waitUntil), instead of by
 * the answer's job: under load a job starts seconds after the message, and the person should see within a second
 * that the bot is on it. The ack keeps its one Redis round trip: the sign's call budget and its mark come after.
 * The mark (one SET) tells the job, in the claim's own read, that the sign is up: the job then only takes it down
 * (lib/streaming/answer.ts whileWorking), when the answer shows or the job ends, [SKIP] included. A job that
 * looked before the mark was set puts the sign up itself and finds it there (Slack's `already_reacted`).
 */
import { errorMessage } from "../log.ts";
import type { Replier } from "../pipeline.ts";
import type { Job } from "../queue/job.ts";
import type { Runtime } from "../runtime.ts";

/** Puts the job's working sign up and marks it so; never throws (the job shows its own when this failed). */
export async function showWorkingEarly(rt: Runtime, job: Job, replier: Replier): Promise<void> {
  if (!rt.settings.SHOW_WORKING) return;
  try {
    const sign = await replier.working(job);
    if (sign.shown !== false) await rt.store.replies.markSignUp(job.key, job.trigger.id);
  } catch (err) {
    rt.log.warn("working_sign_failed", { platform: job.key.platform, where: "webhook", message: errorMessage(err) });
  }
}
