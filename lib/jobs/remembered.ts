/**
 * @module
 * The reply job's part of memory: what is remembered about the conversation's people, as far as the place may see
 * it, before generating (the facts themselves live in lib/memory/).
 */
import { rememberedAbout, type RememberedPerson } from "../memory/notes.ts";
import { peopleIn } from "../memory/people.ts";
import type { StoredMessage } from "../message.ts";
import type { JobScope } from "./scope.ts";

/** The facts of the people of `messages` that may be shown where the job answers, the person answered first. */
export async function rememberedPeople(scope: JobScope, messages: StoredMessage[]): Promise<RememberedPerson[]> {
  const { rt, job } = scope;
  if (!rt.settings.MEMORY_ENABLED || rt.settings.FACTS_IN_PROMPT === 0) return [];
  const people = peopleIn(messages, job.bot.userId, job.trigger.authorId);
  if (people.length === 0) return [];
  const learnedIn = { visibility: await scope.visibility(), channel: job.key.channel };
  return rememberedAbout(rt.facts, job.key, people, learnedIn, rt.settings.FACTS_IN_PROMPT);
}
