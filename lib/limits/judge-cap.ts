/**
 * @module
 * A per-conversation cap on judge calls per minute: a busy channel where nobody addresses the bot must not turn
 * every message into a model call. Over the cap the judge answers NO without asking the model.
 */
import { placeId } from "../keys.ts";
import { jobLogFields } from "../log-ids.ts";
import type { JobPayload } from "../queue/job.ts";
import type { Services } from "../services.ts";
import type { Limiters } from "./limiters.ts";

/** `first`: no earlier attempt of the job got this far (the trigger's reply record says so: lib/jobs/attempt.ts). */
export async function judgeWithinCap(
  rt: Services & { limiters: Limiters },
  job: JobPayload,
  first: boolean,
  askJudge: () => Promise<boolean>,
): Promise<boolean> {
  // A retried judge job was already counted when it first asked.
  if (!first) return askJudge();
  const verdict = await rt.limiters.judge.limit(placeId(job.key));
  if (!verdict.success) {
    rt.log.info("judge_capped", { ...(await jobLogFields(rt, job)) });
    return false;
  }
  return askJudge();
}
