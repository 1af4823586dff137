/**
 * @module
 * QStash schedules of jobs (a place's digest, lib/digests/): `client.schedules` with the job sealed into the body
 * (./sealed-job.ts), delivered signed to the job's kind's route at each time of its cron. A schedule's id is chosen
 * here from a keyed pseudonym of what it is for, so that creating it again (a retried command, a changed time)
 * overwrites it, as QStash does for a known id, and never leaves a second one behind.
 */
import { Client, QstashError } from "@upstash/qstash";
import type { Job } from "./job.ts";
import type { QueueSettings } from "./publish.ts";
import { sealJob } from "./sealed-job.ts";

const RETRIES = 3;
const NOT_FOUND = 404;

/** A schedule as the Worker reads it back: its last slot (ms) once one fired, and its next. */
interface ScheduleTimes {
  lastScheduleTime?: number;
  nextScheduleTime?: number;
}

export interface JobSchedules {
  /** The schedule id for `what` (e.g. a place's digest): the same id every time. */
  idFor(what: string): Promise<string>;
  /** Creates (or overwrites) schedule `scheduleId`: `job`, sealed, to its kind's route at each time of `cron`. */
  create(scheduleId: string, job: Job, cron: string): Promise<void>;
  /** Its times; null when QStash has no such schedule. */
  times(scheduleId: string): Promise<ScheduleTimes | null>;
  /** Deletes it; one that is already gone counts as deleted. */
  delete(scheduleId: string): Promise<void>;
}

export function createJobSchedules(s: QueueSettings): JobSchedules {
  const client = new Client({ baseUrl: s.qstashUrl, token: s.qstashToken, retry: { retries: 1, backoff: () => 50 } });
  const gone = (err: unknown) => err instanceof QstashError && err.status === NOT_FOUND;
  return {
    async idFor(what) {
      return `parley-${await s.secrets.pseudonyms.of(what)}`;
    },
    async create(scheduleId, job, cron) {
      await client.schedules.create({
        scheduleId,
        destination: `${s.publicBaseUrl}/jobs/${job.kind}`,
        cron,
        body: JSON.stringify(await sealJob(job, s.secrets.jobs)),
        headers: { "Content-Type": "application/json" },
        retries: RETRIES,
      });
    },
    async times(scheduleId) {
      try {
        const { lastScheduleTime, nextScheduleTime } = await client.schedules.get(scheduleId);
        return {
          ...(lastScheduleTime ? { lastScheduleTime } : {}),
          ...(nextScheduleTime ? { nextScheduleTime } : {}),
        };
      } catch (err) {
        if (gone(err)) return null;
        throw err;
      }
    },
    async delete(scheduleId) {
      try {
        await client.schedules.delete(scheduleId);
      } catch (err) {
        if (!gone(err)) throw err;
      }
    },
  };
}
