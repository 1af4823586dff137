/**
 * @module
 * The working sign put up by the webhook, right after its acknowledgement (the request's waitUntil), instead of by
 * the answer's job: under load a job starts seconds after the message, and the person should see within a second
 * that the bot is on it. The ack keeps its one Redis round trip: the sign's call budget and its mark come after.
 * The mark (one SET) tells the job, in the claim's own read, that the sign is up: the job then only takes it down
 * (lib/streaming/answer.ts whileWorking), when the answer shows or the job ends, [SKIP] included. It is set first,
 * before the installation's token and the sign's budget are read, because the job starts at once (QStash is quick):
 * a job that claimed before the mark would take that budget a second time, halving the signs a workspace gets.
 * When no sign goes up after all (no room in the budget), the mark is taken back (one DEL). The job takes the sign
 * down only when its answer shows, long after the sign's call; a job that looked before the mark puts the sign up
 * itself and finds it there (Slack's `already_reacted`).
 */
import { errorMessage } from "../log.ts";
import type { Replier } from "../pipeline.ts";
import type { Job } from "../queue/job.ts";
import type { Runtime } from "../runtime.ts";

/** Puts the job's working sign up and marks it so; never throws (the job shows its own when this failed). */
export async function showWorkingEarly(rt: Runtime, job: Job, replier: Replier): Promise<void> {
  if (!rt.settings.SHOW_WORKING) return;
  const { replies } = rt.store;
  let showing = false;
  try {
    await replies.markSign(job.key, job.trigger.id, true);
    await replier.working(job, { beforeShowing: async () => void (showing = true) });
    if (!showing) await replies.markSign(job.key, job.trigger.id, false);
  } catch (err) {
    if (!showing) await replies.markSign(job.key, job.trigger.id, false).catch(() => undefined);
    rt.log.warn("working_sign_failed", { platform: job.key.platform, where: "webhook", message: errorMessage(err) });
  }
}
