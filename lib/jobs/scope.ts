/**
 * @module
 * What every step of one delivery of a job works with, built once: the runtime, the job and its kind, the
 * platform's side of it (lib/platforms/replier.ts), the fields its log lines carry, and who can read its place
 * (resolved at most once per job, ./visibility.ts), and whose daily token budget its model calls spend. The steps of
 * an answer also get its attempt (./attempt.ts).
 */
import type { Spender } from "../limits/tenant-budget.ts";
import { jobLogFields, type JobLogFields } from "../log-ids.ts";
import type { Visibility } from "../message.ts";
import type { Replier } from "../platforms/replier.ts";
import type { Job, JobKind } from "../queue/job.ts";
import type { Runtime } from "../runtime.ts";
import type { Attempt } from "./attempt.ts";
import { placeVisibility } from "./visibility.ts";

export interface JobScope {
  rt: Runtime;
  kind: JobKind;
  job: Job;
  replier: Replier;
  /** The fields of every log line of the job. */
  where: JobLogFields & { kind: JobKind };
  /** Who can read the job's place: what its message said, or the platform's answer, asked once. */
  visibility(): Promise<Visibility>;
  /** Whose tokens its model calls are (lib/limits/tenant-budget.ts): the trigger's author, in the budget's tenant. */
  spender: Spender;
}

/** A job's scope while it answers its trigger: with the attempt that holds the answer's claim. */
export interface AnswerScope extends JobScope {
  attempt: Attempt;
}

export async function jobScope(rt: Runtime, job: Job, replier: Replier): Promise<JobScope> {
  let visibility: Promise<Visibility> | undefined;
  const { kind } = job;
  return {
    rt,
    kind,
    job,
    replier,
    where: { ...(await jobLogFields(rt, job)), kind },
    visibility: () => (visibility ??= placeVisibility(rt, job, replier)),
    spender: { budgetTenant: replier.budgetTenant(job), person: job.trigger.authorId },
  };
}
