/**
 * @module
 * Publishes jobs to QStash: sealed (./sealed-job.ts), deduplicated per trigger, one at a time per conversation.
 * The deduplication id and the flow-control key carry keyed pseudonyms of the trigger and the place, never the
 * ids themselves: an SMS place is two phone numbers, and QStash shows both headers in its console and logs.
 */
import { Client } from "@upstash/qstash";
import { placeId } from "../keys.ts";
import type { Pseudonyms } from "../secrets/pseudonym.ts";
import type { Sealer } from "../secrets/seal.ts";
import type { Job } from "./job.ts";
import { sealJob } from "./sealed-job.ts";

export interface QueueSettings {
  qstashUrl: string;
  qstashToken: string;
  publicBaseUrl: string;
  secrets: { jobs: Sealer; pseudonyms: Pseudonyms };
}

export interface JobQueue {
  /** To the job's kind's route. `step`: a later step of a job that runs as several (lib/catch-up/step.ts). */
  publish(
    job: Job,
    opts?: { delaySeconds?: number; step?: number },
  ): Promise<{ messageId: string; deduplicated: boolean }>;
  /** Work that is no conversation's (a tenant's cleanup): its own route under /jobs, its own body and dedup id. */
  publishTask(route: string, body: object, deduplicationId: string): Promise<{ messageId: string }>;
}

/** QStash's own default; each retry waits e^(2.5·n) s, which outlasts a model or platform hiccup. */
const RETRIES = 3;

export function createJobQueue(s: QueueSettings): JobQueue {
  // One quick retry at most: the publish runs inside the webhook, which must answer (503 if QStash is down, so the
  // platform retries) well within Slack's and Discord's 3 s; the client's default retries take about 4 s.
  const client = new Client({ baseUrl: s.qstashUrl, token: s.qstashToken, retry: { retries: 1, backoff: () => 50 } });
  const pseudonym = s.secrets.pseudonyms;
  return {
    async publish(job, opts) {
      const { kind } = job;
      // reply and judge share an id (one of them per trigger); the memory job after the answer, a question's
      // rescue, and an approval's continuation (its expiry is step 1) have their own.
      const trigger = await pseudonym.of(`${job.key.platform}|${job.key.tenant}|${job.trigger.id}`);
      const kindPart = kind === "memory" || kind === "rescue" || kind === "approval" ? `${kind}-` : "";
      const result = await client.publishJSON({
        url: `${s.publicBaseUrl}/jobs/${kind}`,
        body: await sealJob(job, s.secrets.jobs),
        deduplicationId: `${kindPart}${opts?.step ? `step${opts.step}-` : ""}${job.key.platform}-${trigger}`,
        flowControl: { key: `${job.key.platform}-${await pseudonym.of(placeId(job.key))}`, parallelism: 1 },
        retries: RETRIES,
        // The failure route apologises to the user; a lost memory job is not worth telling anyone about.
        // Nor is a lost rescue: nobody asked the bot for it.
        ...(kind === "memory" || kind === "rescue" ? {} : { failureCallback: `${s.publicBaseUrl}/jobs/failed` }),
        ...(opts?.delaySeconds ? { delay: opts.delaySeconds } : {}),
      });
      return { messageId: result.messageId, deduplicated: Boolean(result.deduplicated) };
    },
    async publishTask(route, body, deduplicationId) {
      const result = await client.publishJSON({
        url: `${s.publicBaseUrl}/jobs/${route}`,
        body,
        deduplicationId,
        retries: RETRIES,
      });
      return { messageId: result.messageId };
    },
  };
}
