/**
 * @module
 * Where memory meets the reply job: what is remembered about the conversation's people, as far as the place may
 * see it, before generating; and the one `memory` job published after the answer is posted.
 */
import { recallIndexSettings } from "../config.ts";
import type { StoredMessage } from "../message.ts";
import type { Replier } from "../pipeline.ts";
import type { Job } from "../queue/job.ts";
import type { Runtime } from "../runtime.ts";
import { factStoreFor } from "./facts-for.ts";
import { rememberedAbout, type RememberedPerson } from "./notes.ts";
import { peopleIn } from "./people.ts";
import { placeVisibility } from "./visibility.ts";

/** The facts of the people of `messages` that may be shown where the job answers, the person answered first. */
export async function rememberedPeople(
  rt: Runtime,
  job: Job,
  messages: StoredMessage[],
  replier: Pick<Replier, "placeVisibility">,
): Promise<RememberedPerson[]> {
  if (!rt.settings.MEMORY_ENABLED || rt.settings.FACTS_IN_PROMPT === 0) return [];
  const people = peopleIn(messages, job.bot.userId, job.trigger.authorId);
  if (people.length === 0) return [];
  const scope = { visibility: await placeVisibility(rt, job, replier), channel: job.key.channel };
  return rememberedAbout(factStoreFor(rt), job.key, people, scope, rt.settings.FACTS_IN_PROMPT);
}

/** At most one extra job per answer. The answer is already out, so a failed publish is logged, never thrown. */
export async function publishMemoryJob(rt: Runtime, job: Job): Promise<void> {
  if (!rt.settings.MEMORY_ENABLED && !rt.settings.SUMMARY_ENABLED && !recallIndexSettings(rt.settings)) return;
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
