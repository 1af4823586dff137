/**
 * @module
 * How log lines name people and places. A platform whose ids are personal data (Twilio: phone numbers, also inside
 * the SMS channel `To|From`) says so in its ingest options (`logIds: "pseudonym"`); the core then logs keyed
 * pseudonyms of those ids (lib/secrets/pseudonym.ts), never the ids. The choice travels with the job, so every
 * line of a job's flow (`job_ended`, `reply_rate_limited`, `job_failed`, ...) names the person the same way.
 */
import type { ConversationKey, LogIds, Platform } from "./message.ts";
import type { RuntimeSecrets } from "./services.ts";

interface HasSecrets {
  secrets: Pick<RuntimeSecrets, "pseudonyms">;
}

/** Where something happened, as a log line may name it. */
export interface LoggedPlace {
  platform: Platform;
  tenant: string;
  channel: string;
}

/** The id as a log line may show it. */
export function loggedId(rt: HasSecrets, logIds: LogIds | undefined, id: string): Promise<string> {
  return logIds === "pseudonym" ? rt.secrets.pseudonyms.of(id) : Promise.resolve(id);
}

export async function loggedPlace(
  rt: HasSecrets,
  key: ConversationKey,
  logIds: LogIds | undefined,
): Promise<LoggedPlace> {
  return { platform: key.platform, tenant: key.tenant, channel: await loggedId(rt, logIds, key.channel) };
}

/** The fields every log line of a job carries: its place, its trigger, and who wrote the trigger. */
export interface JobLogFields extends LoggedPlace {
  trigger: string;
  author: string;
}

/** What a job's log lines name: its place, its trigger's id and author, and how ids are shown (lib/queue/job.ts). */
export interface LoggedJob {
  key: ConversationKey;
  trigger: { id: string; authorId: string };
  logIds?: LogIds;
}

const byJob = new WeakMap<LoggedJob, Promise<JobLogFields>>();

/** Computed once per job object, whichever step of its flow logs first. */
export function jobLogFields(rt: HasSecrets, job: LoggedJob): Promise<JobLogFields> {
  let fields = byJob.get(job);
  if (!fields) {
    fields = (async () => ({
      ...(await loggedPlace(rt, job.key, job.logIds)),
      trigger: job.trigger.id,
      author: await loggedId(rt, job.logIds, job.trigger.authorId),
    }))();
    byJob.set(job, fields);
  }
  return fields;
}
