/**
 * @module
 * The memory job's part of recall: after each answer, the passages of the conversation from the bot's previous answer
 * on (earlier ones went with an earlier memory job; passage ids are stable, so a passage that grew is replaced, not
 * doubled) go to the tenant's namespace in one upsert request, with the place, its visibility, the people and the time
 * span as metadata. Never the messages of a person who asked to be forgotten, nor the bot's answers to them: their
 * forget marks are read before building the passages, and again after the upsert, so that a "forget me" that ran
 * meanwhile (and deleted their passages before this job wrote) has what this job wrote deleted too.
 */
import type { ConversationState, StoredMessage, Visibility } from "../../message.ts";
import { using } from "../../errors.ts";
import type { JobPayload } from "../../queue/job.ts";
import type { ForgetMarks } from "../forgotten.ts";
import { isBot } from "../transcript.ts";
import { conversationPassages, peopleAbout, type PassageSource } from "./build-passages.ts";
import { forgetFilter } from "./filters.ts";
import type { Recall } from "./index-for.ts";

type RecallServices = { recall: Recall | null; forgotten: ForgetMarks };

/** Returns how many passages were written (0 when recall is off). Throws when Vector fails: QStash retries the job. */
export async function indexConversation(
  rt: RecallServices,
  job: JobPayload,
  state: ConversationState,
  visibility: Visibility,
): Promise<number> {
  const { recall } = rt;
  if (!recall) return 0;
  const forgotten = await forgottenAmong(rt, job, peopleAbout(job, state.recent));
  const source: PassageSource = {
    key: job.key,
    visibility,
    conversationId: job.conversationId,
    bot: { userId: job.bot.userId, name: job.bot.name },
    forgotten,
  };
  const since = previousAnswerTs(state.recent, job.bot.userId);
  const passages = conversationPassages(source, state.recent).filter((p) => p.metadata.end >= since);
  if (passages.length === 0) return 0;
  const namespace = recall.namespace(job.key);
  await recall.index.upsert(namespace, passages);
  const written = [...new Set(passages.flatMap((p) => p.metadata.people))];
  for (const person of await forgottenAmong(rt, job, written)) {
    await recall.index.deleteWhere(namespace, forgetFilter(person, job.conversationId));
  }
  return passages.length;
}

/** The people among `ids` who asked to be forgotten lately (their forget mark still stands). */
async function forgottenAmong(rt: RecallServices, job: JobPayload, ids: string[]): Promise<Set<string>> {
  const marks = await using("redis", () => rt.forgotten.askedAt(job.key, ids));
  return new Set(marks.keys());
}

/** When the bot answered before its latest answer; everything from then on may have changed since the last job. */
function previousAnswerTs(messages: StoredMessage[], botUserId: string): number {
  const answers = messages.filter((m) => isBot(m, botUserId));
  return answers.at(-2)?.ts ?? 0;
}
