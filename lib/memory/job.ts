/**
 * @module
 * The `memory` job, published once after each posted answer: extract facts about the people of the latest exchange
 * and merge them into what is known (MEMORY_ENABLED), then fold the oldest messages into the running summary when
 * the conversation outgrows the prompt budget (SUMMARY_ENABLED). It runs in the conversation's flow-control lane,
 * so it never races the conversation's replies.
 */
import type { ConversationState } from "../conversation/types.ts";
import { using } from "../errors.ts";
import type { ExtractedFact } from "../llm/extract-facts.ts";
import { personLine } from "../llm/memory-wording.ts";
import type { Job } from "../queue/job.ts";
import type { Runtime } from "../runtime.ts";
import { factStoreFor } from "./facts-for.ts";
import { messagesToFold, summaryMaxTokens } from "./fold.ts";
import { peopleIn } from "./people.ts";
import { latestExchange, transcriptLines } from "./transcript.ts";

/** Enough of a burst to find what people said; older messages were seen by an earlier memory job. */
const MAX_EXCHANGE_MESSAGES = 12;

export type MemoryOutcome = "remembered" | "conversation_gone";

export async function runMemoryJob(rt: Runtime, job: Job): Promise<MemoryOutcome> {
  const where = { platform: job.key.platform, tenant: job.key.tenant, channel: job.key.channel, trigger: job.trigger.id };
  const state = await using("redis", () => rt.store.load(job.key));
  // An expired, reset or forgotten conversation stays gone: nothing is extracted from it or written back.
  if (!state || state.id !== job.conversationId) {
    rt.log.info("memory_job_ended", { ...where, outcome: "conversation_gone" });
    return "conversation_gone";
  }
  const facts = rt.settings.MEMORY_ENABLED ? await rememberFacts(rt, job, state) : 0;
  const folded = rt.settings.SUMMARY_ENABLED ? await foldIntoSummary(rt, job, state) : 0;
  rt.log.info("memory_job_ended", { ...where, outcome: "remembered", facts, folded });
  return "remembered";
}

/** Returns how many facts were stored. */
async function rememberFacts(rt: Runtime, job: Job, state: ConversationState): Promise<number> {
  const exchange = latestExchange(state.recent, job.bot.userId, MAX_EXCHANGE_MESSAGES);
  const people = peopleIn(exchange, job.bot.userId);
  if (people.length === 0) return 0;
  const store = factStoreFor(rt);
  const known = await using("redis", () => store.load(job.key, people.map((p) => p.id)));
  const extracted = await rt.llm.extractFacts({
    known: people.flatMap((p) => (known.get(p.id) ?? []).map((f) => personLine(p.id, p.name, f.text))),
    exchange: transcriptLines(exchange, job.bot),
  });
  if (!extracted) return 0;
  const byPerson = new Map<string, ExtractedFact[]>(people.map((p) => [p.id, []]));
  let strangers = 0;
  for (const fact of extracted) {
    const list = byPerson.get(fact.person);
    if (list) list.push(fact);
    else strangers++;
  }
  // A model may invent ids or file facts about the bot: only the people of the exchange get facts.
  if (strangers > 0) rt.log.warn("facts_dropped", { reason: "unknown_person", count: strangers });
  let stored = 0;
  for (const [personId, facts] of byPerson) {
    if (facts.length === 0) continue;
    await using("redis", () => store.merge(job.key, personId, facts, rt.now()));
    stored += facts.length;
  }
  return stored;
}

/** Returns how many messages left the log for the summary. */
async function foldIntoSummary(rt: Runtime, job: Job, state: ConversationState): Promise<number> {
  const budget = rt.settings.PROMPT_TOKEN_BUDGET;
  const fold = messagesToFold(state.recent, state.answeredThrough, budget);
  if (fold.length === 0) return 0;
  const summary = await rt.llm.summarize({
    previous: state.summary,
    lines: transcriptLines(fold, job.bot),
    maxTokens: summaryMaxTokens(budget),
  });
  if (!summary) {
    rt.log.warn("summary_not_folded", { reason: "empty_summary", messages: fold.length });
    return 0;
  }
  const written = await using("redis", () =>
    rt.store.foldSummary(job.key, {
      conversationId: job.conversationId,
      previousSummary: state.summary ?? "",
      summary,
      through: fold.at(-1)!.ts,
    }),
  );
  if (!written) {
    rt.log.info("summary_not_folded", { reason: "conversation_changed", messages: fold.length });
    return 0;
  }
  return fold.length;
}
