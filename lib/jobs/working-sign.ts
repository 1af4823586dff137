/**
 * @module
 * The sign that the bot is working on an answer (Slack status or reaction, Discord typing): up from the job's
 * start, beside the prompt's building and the model call, neither waiting for the other, and down when the answer
 * starts to show or the job ends, whatever its end. A judged job shows none: the judge may say no.
 *
 * Where the platform allows (Slack), the webhook puts it up instead, right after its acknowledgement
 * (`showWorkingEarly`): under load a job starts seconds after the message, and the person should see within a
 * second that the bot is on it. The job says so (`signByWebhook`, set before it is published) and never puts a sign
 * up itself. The mark (set in the same round trip as the sign's budget is taken, before the call: the webhook costs
 * one round trip after its acknowledgement) tells the job that the sign is up: the job reads it in its claim's
 * MGET, or (when it claimed first: QStash is quick) once more when it takes the sign down. A failed attempt forgets
 * the mark, so that retries leave the sign alone.
 */
import { errorMessage } from "../log.ts";
import type { WorkingSign } from "../platforms/answer-stream.ts";
import type { Replier } from "../platforms/replier.ts";
import type { Job } from "../queue/job.ts";
import type { Runtime } from "../runtime.ts";
import type { JobScope } from "./scope.ts";

const NO_SIGN: WorkingSign = { stop: async () => undefined };

/**
 * The job's working sign, going up as this returns (never awaited: the answer does not wait for it). `signUp`: the
 * job's claim read the webhook's mark, so the sign is up already and is only to be taken down.
 */
export function showWorking(scope: JobScope, signUp: boolean): WorkingSign {
  const { kind, job } = scope;
  if (kind !== "reply") return NO_SIGN;
  if (job.signByWebhook) return webhookSign(scope, signUp);
  const sign = platformSign(scope, false);
  return { stop: async () => (await sign).stop() };
}

/**
 * Takes the sign down; after a failed attempt, forgets the webhook's mark: QStash's retry must not take it down again.
 */
export async function takeSignDown(scope: JobScope, sign: WorkingSign, failed: boolean): Promise<void> {
  await sign.stop();
  const { rt, job } = scope;
  if (failed && job.signByWebhook) await rt.store.replies.forgetSign(job.key, job.trigger.id).catch(() => undefined);
}

/**
 * Puts the job's working sign up from the webhook and marks it so (the job is one published with `signByWebhook`,
 * which SHOW_WORKING allowed). Never throws: a sign that failed is logged, and the person sees the answer without
 * one, since the job puts none up itself.
 */
export async function showWorkingEarly(rt: Runtime, job: Job, replier: Replier): Promise<void> {
  try {
    await replier.working(job, { signMark: rt.store.replies.signMark(job.key, job.trigger.id) });
  } catch (err) {
    rt.log.warn("working_sign_failed", { platform: job.key.platform, where: "webhook", message: errorMessage(err) });
  }
}

/**
 * The webhook's sign, which the job only takes down: marked up before the job's claim read it (`signUp`), or by
 * the time the answer shows (the webhook's sign goes up in milliseconds, the answer in seconds; one GET then).
 * Never taken down unmarked: its budget was never taken, and the reaction never put on.
 */
function webhookSign(scope: JobScope, signUp: boolean): WorkingSign {
  const { rt, job } = scope;
  const takeDown = async () => {
    if (!rt.settings.SHOW_WORKING) return;
    if (!signUp && !(await rt.store.replies.signIsUp(job.key, job.trigger.id).catch(() => false))) return;
    await (await platformSign(scope, true)).stop();
  };
  let stopped: Promise<void> | undefined;
  return { stop: () => (stopped ??= takeDown()) };
}

/** The platform's sign, or none: a sign that fails must not hold up the answer. */
async function platformSign({ rt, job, replier }: JobScope, signUp: boolean): Promise<WorkingSign> {
  if (!rt.settings.SHOW_WORKING) return NO_SIGN;
  try {
    const sign = await replier.working(job, { signUp });
    let stopped: Promise<void> | undefined;
    return { stop: () => (stopped ??= sign.stop()) };
  } catch (err) {
    rt.log.warn("working_sign_failed", { platform: job.key.platform, message: errorMessage(err) });
    return NO_SIGN;
  }
}
