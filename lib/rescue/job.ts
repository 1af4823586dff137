/**
 * @module
 * The rescue job: RESCUE_AFTER_MINUTES after a person's question addressed to nobody (lib/rescue/schedule.ts),
 * it reads what came after the question (the conversation's log while one holds it, else the platform's history,
 * read on from the question: lib/platforms/history.ts) and asks the decider's reply-chain model whether anyone
 * answered it (lib/rescue/questions.ts). A question the bot answered, that was deleted (or whose asker asked to be
 * forgotten since), or that someone answered is left alone; so is one past RESCUE_MAX_PER_HOUR per place, and one
 * whose place the platform refuses to read (logged as backfill logs it). Otherwise it hands the question to a reply
 * job under it (a thread or a reply: lib/rescue/capability.ts), never required ([SKIP] allowed), told that it steps
 * in. A redelivered rescue hands it over at most once: the question enters the answer's conversation through the
 * ingest script's dedupe (a `rescue:` id), and the reply job's own deduplication id is the question's.
 */
import { answeredAfter, type AfterQuestion } from "./questions.ts";
import { channelId, placeId } from "../keys.ts";
import type { ConversationKey, ConversationState, InboundMessage, ReplyTarget, StoredMessage } from "../message.ts";
import type { Job } from "../queue/job.ts";
import type { Runtime } from "../runtime.ts";
import { logHistoryRefusal, readAsStored } from "../jobs/backfill.ts";
import type { JobScope } from "../jobs/scope.ts";

export type RescueOutcome =
  | "already_answered"
  | "question_gone"
  | "history_refused"
  | "history_unavailable"
  | "answered_by_people"
  | "rescue_off"
  | "rescue_capped"
  | "stepped_in";

/** The messages before the question the model reads with it, as the decider's view. */
const BEFORE = 20;
/** What is read of each place from the question on: more than a busy one says in RESCUE_AFTER_MINUTES' longest wait. */
const LISTED = 200;

/** The place of an answer under the question, and where it goes. */
type RescuePlace = { key: ConversationKey; target: ReplyTarget };

/** Told to the model with the question: it was not asked, so it says it steps in, and may still keep quiet. */
function steppingInNote(minutes: number): string {
  return (
    `Nobody has answered this question in the ${minutes} minutes since it was asked, and nobody asked you: you are ` +
    `stepping in. ` +
    'Say so in a few words first (for example "Nobody\'s picked this up yet, so:"), then answer briefly.'
  );
}

export async function runRescueJob(scope: JobScope): Promise<RescueOutcome> {
  const { rt, job, replier, where } = scope;
  const end = (outcome: RescueOutcome): RescueOutcome => {
    rt.log.info("rescue_ended", { ...where, outcome });
    return outcome;
  };
  const settings = await rt.placeSettings.read(job.key);
  const under = settings.rescue ? replier.rescueUnder(job) : null;
  if (!under) return end("rescue_off");
  if (await rt.store.replies.hasRecord(job.key, job.trigger.id)) return end("already_answered");
  const [here, there] = await Promise.all([rt.store.load(job.key), rt.store.load(under.key)]);
  const talk = fromLog(job, here, there) ?? (await fromPlatform(scope, under));
  if (talk === "refused") return end("history_refused");
  if (talk === "unavailable") return end("history_unavailable");
  if (!talk) return end("question_gone");
  if (answeredAfter(talk, job.bot, settings.eagerness)) return end("answered_by_people");
  if (!(await rt.limiters.rescue.limit(channelId(job.key))).success) return end("rescue_capped");
  const minutes = settings.rescueMinutes ?? rt.settings.RESCUE_AFTER_MINUTES;
  const published = await handOver(rt, job, talk.question, under, there, steppingInNote(minutes));
  if (published)
    rt.log.info("job_published", {
      ...where,
      kind: "reply",
      job: published.messageId,
      deduplicated: published.deduplicated,
    });
  return end("stepped_in");
}

/** The question's place still holds it: what followed, and the replies in its own thread, are in the logs. */
function fromLog(job: Job, here: ConversationState | null, there: ConversationState | null): AfterQuestion | null {
  const at = here?.recent.findIndex((m) => m.id === job.trigger.id) ?? -1;
  if (!here || at < 0) return null;
  const inThread = there && there.id !== here.id ? there.recent.filter((m) => m.id !== job.trigger.id) : [];
  return {
    before: here.recent.slice(Math.max(0, at - BEFORE), at),
    question: here.recent[at]!,
    later: here.recent.slice(at + 1),
    threadReplies: inThread,
  };
}

/**
 * The conversation ended (or the place was quiet): the platform's history says what followed, read on from the
 * question in its place, and first in the place of an answer under it when that is a place of its own (a Slack
 * thread, which starts with the question). null when the question is gone; "refused" when the platform will not say;
 * "unavailable" when the read failed (logged `history_unavailable`, lib/platforms/optional-read.ts).
 */
async function fromPlatform(
  scope: JobScope,
  under: RescuePlace,
): Promise<AfterQuestion | null | "refused" | "unavailable"> {
  const asked = scope.job.trigger.id;
  let thread: StoredMessage[] = [];
  if (placeId(under.key) !== placeId(scope.job.key)) {
    const read = await readOn(scope, under.key);
    if (read === "unavailable") return read;
    if ("refused" in read) return refused(scope, read.refused);
    // A thread without the question at its head says that the question was deleted: the place is not read.
    if (!read.messages.some((m) => m.id === asked)) return null;
    thread = read.messages;
  }
  const read = await readOn(scope, scope.job.key);
  if (read === "unavailable") return read;
  if ("refused" in read) return refused(scope, read.refused);
  const question = [...thread, ...read.messages].find((m) => m.id === asked);
  if (!question) return null;
  const until = scope.rt.now();
  const after = (m: StoredMessage) => m.id !== asked && m.ts <= until;
  return { before: [], question, later: read.messages.filter(after), threadReplies: thread.filter(after) };
}

/**
 * The place's messages from the question on, oldest first, kept as backfill keeps them, without what people wrote
 * before they asked to be forgotten; a reply to one of them names its author (a reply to the asker answers them).
 */
async function readOn(
  { rt, job, replier }: JobScope,
  key: ConversationKey,
): Promise<{ messages: StoredMessage[] } | { refused: string } | "unavailable"> {
  const page = await replier.readHistory(
    { ...job, key },
    { after: { id: job.trigger.id, ts: job.trigger.ts }, triggerListed: true, limit: LISTED },
  );
  // A place with a rescue has a history to read (Replier.rescueUnder): no page is a read that failed.
  if (!page) return "unavailable";
  if ("refused" in page) return { refused: page.refused };
  const kept = (await rt.forgotten.withoutForgotten(key, page.messages)).map((m) =>
    readAsStored(m, job, rt.settings.MAX_MESSAGE_CHARS),
  );
  const authorOf = new Map(kept.map((m) => [m.id, m.authorId]));
  return {
    messages: kept.map((m) => {
      const to = m.replyToId === undefined ? undefined : authorOf.get(m.replyToId);
      return to ? { ...m, replyToAuthorId: to } : m;
    }),
  };
}

/** Logged once per place per hour, as backfill logs it. */
async function refused(scope: JobScope, missing: string): Promise<"refused"> {
  await logHistoryRefusal(scope, missing);
  return "refused";
}

/**
 * The question goes to a reply job under it: as it stands when the conversation there holds it, else as a message
 * of its own (`rescue:<id>`) that starts or joins that conversation.
 */
async function handOver(
  rt: Runtime,
  job: Job,
  question: StoredMessage,
  under: RescuePlace,
  there: ConversationState | null,
  note: string,
): Promise<{ messageId: string; deduplicated: boolean } | null> {
  let conversationId = there?.id;
  let trigger = job.trigger;
  if (!there?.recent.some((m) => m.id === question.id)) {
    const asked: InboundMessage = {
      key: under.key,
      id: `rescue:${question.id}`,
      author: { id: question.authorId, name: question.authorName, isBot: false },
      text: question.text,
      ts: question.ts,
      addressing: "none",
      mentions: [],
      replyTarget: under.target,
    };
    const recorded = await rt.store.record(asked, { startIfIdle: true, reset: false });
    // An earlier delivery of this rescue handed it over, and its reply job started.
    if (recorded.status === "duplicate") return null;
    conversationId = recorded.state.id;
    trigger = { ...trigger, id: asked.id };
  }
  const answer: Job = {
    ...job,
    kind: "reply",
    key: under.key,
    conversationId: conversationId!,
    trigger,
    replyTarget: under.target,
    reason: "rescue",
    required: false,
    systemNotes: [note],
  };
  return rt.queue.publish(answer);
}
