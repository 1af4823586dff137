/**
 * @module
 * Where memory meets the reply job: the facts of the conversation's people as prompt notes before generating, and
 * the one `memory` job published after the answer is posted.
 */
import type { StoredMessage } from "../conversation/types.ts";
import type { Job } from "../queue/job.ts";
import type { Runtime } from "../runtime.ts";
import { factStoreFor } from "./facts-for.ts";
import { factNotes } from "./notes.ts";
import { peopleIn } from "./people.ts";

/** System notes with what is known about the people of `messages`, the person answered first. */
export async function memoryNotes(rt: Runtime, job: Job, messages: StoredMessage[]): Promise<string[]> {
  if (!rt.settings.MEMORY_ENABLED) return [];
  const people = peopleIn(messages, job.bot.userId, job.trigger.authorId);
  return factNotes(factStoreFor(rt), job.key, people, rt.settings.FACTS_IN_PROMPT);
}

/** At most one extra job per answer. The answer is already out, so a failed publish is logged, never thrown. */
export async function publishMemoryJob(rt: Runtime, job: Job): Promise<void> {
  if (!rt.settings.MEMORY_ENABLED && !rt.settings.SUMMARY_ENABLED) return;
  try {
    await rt.queue.publish("memory", job);
  } catch (err) {
    rt.log.warn("memory_job_not_published", {
      platform: job.key.platform,
      trigger: job.trigger.id,
      error: err instanceof Error ? err.name : "unknown",
    });
  }
}
