/**
 * @module
 * The per-person reply rate limit, checked in the job before the model is called (never on the webhook's path).
 * Over the limit the bot says so once, then stays quiet until the window has passed. Each trigger message counts
 * once: the job asks only on its first attempt (the trigger's reply record keeps that it got this far), so a retry
 * after a failed model call or post does not spend the person's allowance again.
 */
import { personId } from "../keys.ts";
import { jobLogFields } from "../log-ids.ts";
import type { JobPayload } from "../queue/job.ts";
import type { Services } from "../services.ts";
import type { Limiters } from "./limiters.ts";
import type { ToldOnce } from "./told-once.ts";

/** allowed: answer; notify: post RATE_LIMIT_NOTICE instead of an answer; quiet: post nothing. */
export type ReplyAllowance = "allowed" | "notify" | "quiet";

export async function checkReplyRate(
  rt: Services & { limiters: Limiters; toldOnce: ToldOnce },
  job: JobPayload,
): Promise<ReplyAllowance> {
  const { key, trigger } = job;
  const person = personId(key, trigger.authorId);
  const verdict = await rt.limiters.replies.limit(person);
  if (verdict.success) return "allowed";
  // One notice per window: the first job over the limit wins the mark, later ones find it taken.
  const quietSeconds = Math.max(1, Math.ceil((verdict.reset - rt.now()) / 1000));
  const first = await rt.toldOnce.replyRateNotice(person, quietSeconds);
  rt.log.info("reply_rate_limited", { ...(await jobLogFields(rt, job)), notice: first });
  return first ? "notify" : "quiet";
}
