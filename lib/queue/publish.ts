/**
 * @module
 * Publishes jobs to QStash: deduplicated by the platform message id, one at a time per conversation.
 */
import { Client } from "@upstash/qstash";
import { placeId } from "../keys.ts";
import type { Job, JobKind } from "./job.ts";

export interface QueueSettings {
  qstashUrl: string;
  qstashToken: string;
  publicBaseUrl: string;
}

export interface JobQueue {
  publish(kind: JobKind, job: Job, opts?: { delaySeconds?: number }): Promise<{ messageId: string; deduplicated: boolean }>;
}

/** QStash's own default; each retry waits e^(2.5·n) s, which outlasts a model or platform hiccup. */
const RETRIES = 3;

/** QStash ids allow a narrow alphabet; platform ids contain `:` and `.`. */
function safeId(raw: string): string {
  return raw.replace(/[^A-Za-z0-9_-]/g, "_");
}

export function createJobQueue(s: QueueSettings): JobQueue {
  // One quick retry at most: the publish runs inside the webhook, which must answer (503 if QStash is down, so the
  // platform retries) well within Slack's and Discord's 3 s; the client's default retries take about 4 s.
  const client = new Client({ baseUrl: s.qstashUrl, token: s.qstashToken, retry: { retries: 1, backoff: () => 50 } });
  return {
    async publish(kind, job, opts) {
      const result = await client.publishJSON({
        url: `${s.publicBaseUrl}/jobs/${kind}`,
        body: job,
        // reply and judge share an id (one of them per trigger); the memory job after the answer has its own.
        deduplicationId: safeId(`${kind === "memory" ? "memory-" : ""}${job.key.platform}-${job.key.tenant}-${job.trigger.id}`),
        flowControl: { key: safeId(placeId(job.key)), parallelism: 1 },
        retries: RETRIES,
        // The failure route apologises to the user; a lost memory job is not worth telling anyone about.
        ...(kind === "memory" ? {} : { failureCallback: `${s.publicBaseUrl}/jobs/failed` }),
        ...(opts?.delaySeconds ? { delay: opts.delaySeconds } : {}),
      });
      return { messageId: result.messageId, deduplicated: Boolean(result.deduplicated) };
    },
  };
}
