/**
 * @module
 * POST /jobs/:kind: QStash deliveries. Verify the signature, validate the job, run it, and tell QStash what to do:
 * 2xx done, 5xx (with Retry-After when we know) retry, 489 + Upstash-NonRetryable-Error never retry.
 */

import { type Context, Hono } from "hono";
import { runApprovalJob } from "../lib/approvals/continuation.ts";
import { base64ToText } from "../lib/base64.ts";
import { type PersonalDelivery, runPersonalDigestJob } from "../lib/digests/personal-run.ts";
import { runDigestJob } from "../lib/digests/run.ts";
import { RetryLater } from "../lib/errors.ts";
import { notifyFailure } from "../lib/jobs/failure.ts";
import { runMemoryJob } from "../lib/jobs/memory-job.ts";
import { runReplyJob } from "../lib/jobs/reply-job.ts";
import { type JobScope, jobScope } from "../lib/jobs/scope.ts";
import { jobLogFields } from "../lib/log-ids.ts";
import { adapters, jobSchema } from "../lib/platforms/index.ts";
import { personalDigestSide } from "../lib/platforms/personal-digests.ts";
import { platformReplier } from "../lib/platforms/replier.ts";
import { JOB_KINDS, type Job, type JobKind, type JobPayload } from "../lib/queue/job.ts";
import { JobPayloadError, openJob } from "../lib/queue/sealed-job.ts";
import { runRescueJob } from "../lib/rescue/job.ts";
import { type Runtime, runtimeFor } from "../lib/runtime.ts";
import * as z from "../lib/zod.ts";
import type { AppEnv } from "./app-env.ts";
import { nonRetryable, qstashSignature } from "./middleware/qstash-signature.ts";

/** How a job of each kind runs (with what its delivery says of itself); its outcome goes back in the 2xx's body. */
type Runner = (scope: JobScope, delivery: PersonalDelivery) => Promise<string>;

const RUNNERS = {
  reply: runReplyJob,
  judge: runReplyJob,
  memory: runMemoryJob,
  rescue: runRescueJob,
  approval: runApprovalJob,
  digest: runDigestJob,
  digest_me: runPersonalDigestJob,
} satisfies Record<JobKind, Runner>;

export const jobs = new Hono<AppEnv>();

jobs.post("/:kind", qstashSignature(), async (c) => {
  const rt = runtimeFor(c.env);
  const kind = c.req.param("kind");
  const rawBody = c.var.rawBody;
  if (kind === "failed") return failed(c, rt, rawBody);
  const jobKind = z.enum(JOB_KINDS).safeParse(kind);
  if (!jobKind.success) return c.json({ error: `unknown job kind ${kind}` }, 404);
  const payload = await parseJob(rt, rawBody);
  if (!payload) return nonRetryable(c, "invalid job payload");
  const job: Job = { ...payload, kind: jobKind.data };
  try {
    const delivery = { scheduleId: c.req.header("Upstash-Schedule-Id"), personal: personalDigestSide(rt, adapters) };
    const outcome = await RUNNERS[job.kind](await jobScope(rt, job, platformReplier(rt, adapters)), delivery);
    return c.json({ outcome });
  } catch (err) {
    return retryLater(c, rt, kind, job, err);
  }
});

/** A RetryLater becomes 503 with its Retry-After, which QStash waits out before its next attempt; others rethrow. */
function retryLater(c: Context<AppEnv>, rt: Runtime, kind: string, job: Job, err: unknown): Response {
  if (!(err instanceof RetryLater)) throw err;
  rt.log.warn("job_retry_later", { kind, trigger: job.trigger.id, seconds: err.retryAfterSeconds });
  return c.json({ error: "retry later" }, 503, { "Retry-After": String(Math.ceil(err.retryAfterSeconds)) });
}

/** The job a payload seals; null (logged as `job_invalid` with the fields that failed) when it is not one. */
async function parseJob(rt: Runtime, rawBody: string): Promise<JobPayload | null> {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    rt.log.error("job_invalid", { fields: ["(not JSON)"] });
    return null;
  }
  try {
    return await openJob(body, rt.secrets.jobs, jobSchema);
  } catch (err) {
    if (!(err instanceof JobPayloadError)) throw err;
    rt.log.error("job_invalid", { fields: err.fields });
    return null;
  }
}

/** QStash's failure callback after the last retry: the body carries the original job, base64-encoded. */
const failureSchema = z.object({
  status: z.optional(z.number()),
  retried: z.optional(z.number()),
  sourceMessageId: z.optional(z.string()),
  sourceBody: z.string(),
});

async function failed(c: Context<AppEnv>, rt: Runtime, rawBody: string): Promise<Response> {
  let failure: z.output<typeof failureSchema>;
  let payload: JobPayload | null;
  try {
    failure = failureSchema.parse(JSON.parse(rawBody));
    const sourceBody = base64ToText(failure.sourceBody);
    if (sourceBody === null) throw new Error("sourceBody is not base64");
    payload = await parseJob(rt, sourceBody);
  } catch {
    return nonRetryable(c, "invalid failure callback");
  }
  if (!payload) return nonRetryable(c, "failure callback without a valid job");
  // Whatever its kind (reply, judge, an approval's continuation), the callback finishes the trigger's answer or
  // apologises for it, as a reply job would.
  const job: Job = { ...payload, kind: "reply" };
  rt.log.error("job_failed", {
    ...(await jobLogFields(rt, job)),
    message: failure.sourceMessageId,
    status: failure.status,
    retried: failure.retried,
  });
  try {
    return c.json({ told: await notifyFailure(await jobScope(rt, job, platformReplier(rt, adapters))) });
  } catch (err) {
    return retryLater(c, rt, "failed", job, err);
  }
}
