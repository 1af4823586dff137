/**
 * @module
 * A per-conversation cap on judge calls per minute: a busy channel where nobody addresses the bot must not turn
 * every message into a model call. Over the cap the judge answers NO without asking the model.
 */
import { placeId } from "../keys.ts";
import { jobLogFields } from "../log-ids.ts";
import type { Job } from "../queue/job.ts";
import type { Runtime } from "../runtime.ts";
import { firstAttempt } from "./first-attempt.ts";
import { limitersFor } from "./limiters.ts";

export async function judgeWithinCap(rt: Runtime, job: Job, askJudge: () => Promise<boolean>): Promise<boolean> {
  // A retried judge job was already counted when it first asked.
  if (!(await firstAttempt(rt, "judge", job.key, job.trigger.id))) return askJudge();
  const verdict = await limitersFor(rt).judge.limit(placeId(job.key));
  if (!verdict.success) {
    rt.log.info("judge_capped", { ...(await jobLogFields(rt, job)) });
    return false;
  }
  return askJudge();
}
