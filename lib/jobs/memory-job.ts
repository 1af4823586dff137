/**
 * @module
 * The `memory` job, published once after each posted answer: extract facts about the people of the latest exchange and
 * merge them into what is known (MEMORY_ENABLED), then fold the oldest messages into the running summary when the
 * conversation outgrows the prompt budget (SUMMARY_ENABLED); and, first, index the conversation's latest passages for
 * recall in later conversations (lib/memory/recall/index-conversation.ts, when recall is on). It runs in the
 * conversation's flow-control lane, so it never races the conversation's replies. A "forget me" elsewhere can race it:
 * facts are refused by the forget mark inside the merge script, and a summary folded meanwhile is erased again
 * (`eraseIfForgotten`). At most one is published per answer (`publishMemoryJob`).
 */
import { using } from "../errors.ts";
import { countTokens } from "../context/tokens.ts";
import { EXTRACTION_MAX_TOKENS, type ExtractedFact } from "../llm/extract-facts.ts";
import { errorMessage } from "../log.ts";
import { messagesToFold, summaryMaxTokens } from "../memory/fold.ts";
import { peopleIn } from "../memory/people.ts";
import { indexConversation } from "../memory/recall/index-conversation.ts";
import { isBot, latestExchange, messageRecords } from "../memory/transcript.ts";
import type { ConversationState, StoredMessage, Visibility } from "../message.ts";
import type { Job } from "../queue/job.ts";
import type { Runtime } from "../runtime.ts";
import { meteredCall } from "./metered.ts";
import type { JobScope } from "./scope.ts";

/** Enough of a burst to find what people said; older messages were seen by an earlier memory job. */
const MAX_EXCHANGE_MESSAGES = 12;

export type MemoryOutcome = "remembered" | "conversation_gone";

/**
 * At most one extra job per answer, with the place's visibility as the answer's job resolved it (so that it need not
 * be asked again). The answer is already out, so a failed publish is logged, never thrown.
 */
export async function publishMemoryJob(rt: Runtime, job: Job, visibility: () => Promise<Visibility>): Promise<void> {
  if (!rt.settings.MEMORY_ENABLED && !rt.settings.SUMMARY_ENABLED && !rt.recall) return;
  try {
    await rt.queue.publish({ ...job, kind: "memory", visibility: await visibility() });
  } catch (err) {
    rt.log.warn("memory_job_not_published", {
      platform: job.key.platform,
      trigger: job.trigger.id,
      error: err instanceof Error ? err.name : "unknown",
    });
  }
}

export async function runMemoryJob(scope: JobScope): Promise<MemoryOutcome> {
  const { rt, job, where } = scope;
  const state = await using("redis", () => rt.store.load(job.key));
  // An expired or reset conversation stays gone: nothing is extracted from it or written back.
  if (!state || state.id !== job.conversationId) {
    rt.log.info("memory_job_ended", { ...where, outcome: "conversation_gone" });
    return "conversation_gone";
  }
  // Before the fold, which takes messages out of the log. When Vector fails, the facts are still learned, and the
  // fold waits for QStash's retry, which indexes again (the facts' merge keeps a restated fact once).
  const indexed = await indexConversation(rt, job, state, await scope.visibility()).then(
    (passages) => ({ passages }),
    (error: unknown) => ({ passages: 0, error }),
  );
  const facts = rt.settings.MEMORY_ENABLED ? await rememberFacts(scope, state) : 0;
  if ("error" in indexed) {
    rt.log.warn("recall_index_failed", { ...where, facts, error: errorMessage(indexed.error) });
    throw indexed.error;
  }
  const { passages } = indexed;
  const folded = rt.settings.SUMMARY_ENABLED ? await foldIntoSummary(scope, state) : 0;
  rt.log.info("memory_job_ended", { ...where, outcome: "remembered", facts, folded, passages });
  return "remembered";
}

/** Returns how many facts were stored. */
async function rememberFacts(scope: JobScope, state: ConversationState): Promise<number> {
  const { rt, job } = scope;
  // What was read from the place when the conversation started is never a source of facts (./backfill.ts).
  const exchange = latestExchange(
    state.recent.filter((m) => !m.backfilled),
    job.bot.userId,
    MAX_EXCHANGE_MESSAGES,
  );
  const people = peopleIn(exchange, job.bot.userId);
  if (people.length === 0) return 0;
  const store = rt.facts;
  const learnedIn = { visibility: await scope.visibility(), channel: job.key.channel };
  const known = await using("redis", () =>
    store.load(
      job.key,
      people.map((p) => p.id),
      learnedIn,
    ),
  );
  const request = {
    known: people.flatMap((p) => (known.get(p.id) ?? []).map((f) => ({ person: p.id, fact: f.text }))),
    exchange: messageRecords(exchange, job.bot),
  };
  const likely = countTokens(JSON.stringify(request)) + EXTRACTION_MAX_TOKENS;
  const extracted = await meteredCall(scope, "facts", likely, (onUsage) =>
    rt.llm.extractFacts({ ...request, onUsage }),
  );
  if (!extracted) return 0;
  const { byPerson, dropped } = ownFacts(extracted, exchange, job.bot.userId);
  // A model may invent ids, file facts about the bot, or believe a message that quotes someone else.
  if (dropped > 0) rt.log.warn("facts_dropped", { reason: "not_the_persons_own_words", count: dropped });
  let stored = 0;
  for (const [personId, facts] of byPerson) {
    const saidAt = Math.max(
      ...exchange.filter((m) => m.authorId === personId && !isBot(m, job.bot.userId)).map((m) => m.ts),
    );
    const merged = await using("redis", () =>
      store.merge(job.key, personId, facts, { now: rt.now(), saidAt, learnedIn }),
    );
    if (merged === "forgotten") rt.log.info("facts_dropped", { reason: "person_forgotten", count: facts.length });
    else stored += facts.length;
  }
  return stored;
}

/** The facts whose every source is a message of the exchange written by the person the fact is about. */
function ownFacts(extracted: ExtractedFact[], exchange: StoredMessage[], botUserId: string) {
  const authorOf = new Map(exchange.flatMap((m) => (isBot(m, botUserId) ? [] : [[m.id, m.authorId] as const])));
  const byPerson = new Map<string, ExtractedFact[]>();
  let dropped = 0;
  for (const fact of extracted) {
    if (!fact.sources.every((id) => authorOf.get(id) === fact.person)) {
      dropped++;
      continue;
    }
    byPerson.set(fact.person, [...(byPerson.get(fact.person) ?? []), fact]);
  }
  return { byPerson, dropped };
}

/** Returns how many messages left the log for the summary. */
async function foldIntoSummary(scope: JobScope, state: ConversationState): Promise<number> {
  const { rt, job } = scope;
  const budget = rt.settings.PROMPT_TOKEN_BUDGET;
  const fold = messagesToFold(state.recent, state.answeredThrough, budget);
  if (fold.length === 0) return 0;
  const request = {
    ...(state.summary ? { previous: state.summary } : {}),
    messages: messageRecords(fold, job.bot),
    maxTokens: summaryMaxTokens(budget),
  };
  const likely = countTokens(JSON.stringify(request)) + request.maxTokens;
  const summary = await meteredCall(scope, "summary", likely, (onUsage) => rt.llm.summarize({ ...request, onUsage }));
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
  await eraseIfForgotten(rt, job, fold);
  return fold.length;
}

/**
 * A person of the fold may have asked to be forgotten while the model wrote the summary: their erasure may have
 * run before the fold wrote it. Their forget mark was set before that erasure, so reading it now catches every such
 * case, and erasing again drops the summary that retells them.
 */
async function eraseIfForgotten(rt: Runtime, job: Job, fold: StoredMessage[]): Promise<void> {
  const authors = [...new Set(fold.filter((m) => !isBot(m, job.bot.userId)).map((m) => m.authorId))];
  if (authors.length === 0) return;
  const marks = await using("redis", () => rt.forgotten.askedAt(job.key, authors));
  for (const [author, askedAt] of marks) {
    if (!fold.some((m) => m.authorId === author && m.ts <= askedAt)) continue;
    await using("redis", () => rt.eraser.eraseConversation(job.key, { personId: author, through: askedAt }));
  }
}
