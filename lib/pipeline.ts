/**
 * @module
 * The two flows of the design: `ingest` runs inside the webhook request (one Redis round trip, at most one
 * publish), `runJob` runs in a QStash delivery (claim, judge or generate, post, record).
 */
import { buildPrompt } from "./context/prompt.ts";
import { isResetRequest } from "./conversation/reset.ts";
import type { RecordStatus } from "./conversation/store.ts";
import { selectTurn } from "./conversation/turn.ts";
import type { ConversationState } from "./conversation/types.ts";
import { decideResponse, explicitTrigger, type Decision, type DecisionReason } from "./decide/index.ts";
import { GiveUp, RetryLater, using } from "./errors.ts";
import { judgeWithinCap } from "./limits/judge-cap.ts";
import { capInboundMessage } from "./limits/message-length.ts";
import { checkReplyRate, RATE_LIMIT_NOTICE } from "./limits/reply-rate.ts";
import { jobLogFields, loggedId, loggedPlace } from "./log-ids.ts";
import type { BotIdentity, InboundMessage, PartProgress, Visibility } from "./message.ts";
import { asksToBeForgotten, FORGET_CONFIRMATION, forgetPerson, forgetTheRequest } from "./memory/forget.ts";
import { publishMemoryJob, rememberedPeople } from "./memory/hooks.ts";
import { optOutsFor } from "./opt-outs.ts";
import type { IngestOptions } from "./platforms/adapter.ts";
import type { Job, JobKind } from "./queue/job.ts";
import type { Runtime } from "./runtime.ts";

/** Explicit addresses that must get an answer even when the model would rather stay quiet. */
const REQUIRED_REASONS: ReadonlySet<DecisionReason> = new Set(["direct_mention", "dm", "command"]);
/** The person asked not to be messaged (STOP), now or earlier: recorded, never answered. */
const OPTED_OUT: Decision = { respond: "no", reason: "opted_out" };
/** Decisions that a platform's "answer every message" does not overturn. */
const NEVER_FORCED: ReadonlySet<DecisionReason> = new Set(["self", "other_bot", "opted_out"]);

export interface IngestResult {
  status: RecordStatus;
  decision?: Decision;
  published: boolean;
}

export async function ingest(rt: Runtime, inbound: InboundMessage, bot: BotIdentity, opts: IngestOptions = {}): Promise<IngestResult> {
  const s = rt.settings;
  const msg = capInboundMessage(inbound, s.MAX_MESSAGE_CHARS);
  const explicit = explicitTrigger(msg, bot);
  const reset = !msg.noReply && isResetRequest(msg.text, bot, s.RESET_WORDS);
  const optOuts = optOutsFor(rt);
  // One round trip: whether the author opted out is read inside the ingest script; STOP or START is written beside it.
  const [{ status, state, optedOut }] = await using("redis", () =>
    Promise.all([
      rt.store.record(msg, {
        startIfIdle: explicit !== null || reset || Boolean(opts.alwaysAnswer),
        reset,
        ...(opts.optOuts ? { optOutKey: optOuts.key(msg.key, msg.author.id) } : {}),
      }),
      msg.consent && optOuts.record(msg.key, msg.author.id, msg.consent),
    ]),
  );
  const where = { ...(await loggedPlace(rt, msg.key, opts.logIds)), message: msg.id };
  if (status === "duplicate" && !msg.redelivery) {
    rt.log.info("duplicate_dropped", where);
    return { status, published: false };
  }
  // The platform answers START and HELP itself, the route a picture without words: nothing to decide.
  if (msg.noReply && msg.consent !== "opt_out") return { status, published: false };
  let decision: Decision =
    msg.consent === "opt_out" || optedOut
      ? OPTED_OUT
      : decideResponse(state, msg, bot, { followupWindowSeconds: s.FOLLOWUP_WINDOW_SECONDS, useJudge: s.USE_LLM_JUDGE }, explicit);
  if (opts.alwaysAnswer && decision.respond !== "yes" && !NEVER_FORCED.has(decision.reason)) {
    decision = { respond: "yes", reason: explicit ?? "dm" };
  }
  rt.log.info("decision", {
    ...where,
    author: await loggedId(rt, opts.logIds, msg.author.id),
    conversation: state.id || null,
    status,
    respond: decision.respond,
    reason: decision.reason,
    score: decision.score,
  });
  if (decision.respond === "no") return { status, decision, published: false };

  const kind: JobKind = decision.respond === "judge" ? "judge" : "reply";
  const job: Job = {
    key: msg.key,
    conversationId: state.id,
    trigger: { id: msg.id, ts: msg.ts, authorId: msg.author.id, authorName: msg.author.name },
    required: REQUIRED_REASONS.has(decision.reason) || Boolean(opts.alwaysAnswer),
    reason: decision.reason,
    bot,
    replyTarget: msg.replyTarget,
    ...(opts.systemNotes?.length ? { systemNotes: opts.systemNotes } : {}),
    ...(opts.delaySeconds ? { waitsForBurst: true } : {}),
    ...(msg.visibility ? { visibility: msg.visibility } : {}),
    ...(opts.logIds ? { logIds: opts.logIds } : {}),
  };
  const published = await using("qstash", () => rt.queue.publish(kind, job, { delaySeconds: opts.delaySeconds }));
  rt.log.info("job_published", { ...where, kind, job: published.messageId, deduplicated: published.deduplicated });
  return { status, decision, published: true };
}

/** The platform side of a job (lib/platforms/replier.ts): the adapter of the job's platform, for its tenant. */
export interface Replier {
  /** False when the person must not be messaged (an opted-out number): the job ends before any model call. */
  canReach(job: Job): Promise<boolean>;
  /**
   * Posts an answer on the platform, split into the platform's parts; returns the ids of the posted messages.
   * `parts.from` skips the parts an earlier attempt already posted; `parts.onPart` hears of each part posted.
   */
  send(job: Job, text: string, parts?: PartProgress): Promise<string[]>;
  /** Who can read the job's place, asked of the platform when the message did not say (lib/memory/visibility.ts). */
  placeVisibility(job: Job): Promise<Visibility>;
}

/** What an attempt got out, so that a failure after the first part is finished by the retry, not redone. */
interface AnswerProgress {
  text?: string;
  partsPosted: number;
  done: boolean;
}

export type JobOutcome =
  | "answered"
  | "forgotten"
  | "skipped"
  | "judge_no"
  | "rate_limited"
  | "already_answered"
  | "covered"
  | "conversation_gone"
  | "unreachable"
  | "superseded"
  | "gave_up";

/** Outcomes after which a redelivery of the job must not try again. ("answered" is marked with the bot's turn.) */
const MARKS_HANDLED: ReadonlySet<JobOutcome> = new Set([
  "forgotten",
  "skipped",
  "judge_no",
  "rate_limited",
  "unreachable",
  "superseded",
  "gave_up",
]);

export async function runJob(rt: Runtime, kind: JobKind, job: Job, replier: Replier): Promise<JobOutcome> {
  const where = { ...(await jobLogFields(rt, job)), kind };
  const claim = await rt.store.claimReply(job.key, job.conversationId, job.trigger);
  if (claim.status === "busy") throw new RetryLater("another attempt is answering this message", claim.retryAfterSeconds);
  if (claim.status !== "claimed") {
    const outcome = ({ done: "already_answered", gone: "conversation_gone", covered: "covered" } as const)[claim.status];
    rt.log.info("job_ended", { ...where, outcome });
    return outcome;
  }
  const progress: AnswerProgress = { text: claim.draft?.text, partsPosted: claim.draft?.partsPosted ?? 0, done: false };
  try {
    const outcome = await answer(rt, kind, job, claim.state, replier, progress).catch((err: unknown) => {
      // Retrying cannot help (opted-out number, unknown channel, no token): end the job for good.
      if (!(err instanceof GiveUp)) throw err;
      rt.log.warn("job_gave_up", { ...where, code: err.code });
      return "gave_up" as const;
    });
    if (MARKS_HANDLED.has(outcome)) await rt.store.markHandled(job.key, job.trigger.id);
    if (outcome !== "gave_up") rt.log.info("job_ended", { ...where, outcome });
    return outcome;
  } catch (err) {
    // Once the answer is out, a retry would post it twice: keep the claim and let it expire instead. When only
    // some parts went out, the retry gets the same text and posts the rest.
    if (!progress.done) {
      const partial = progress.text !== undefined && progress.partsPosted > 0;
      await rt.store.releaseClaim(job.key, job.trigger.id, partial ? { text: progress.text!, partsPosted: progress.partsPosted } : undefined);
    }
    throw err;
  }
}

async function answer(
  rt: Runtime,
  kind: JobKind,
  job: Job,
  state: ConversationState,
  replier: Replier,
  progress: AnswerProgress,
): Promise<JobOutcome> {
  const s = rt.settings;
  if (!(await replier.canReach(job))) return "unreachable";
  // The trigger itself, not the author's latest message: a question right after "forget me" gets its own answer.
  if (asksToBeForgotten(job, state.recent)) {
    await forgetPerson(rt, job);
    await replier.send(job, FORGET_CONFIRMATION);
    progress.done = true;
    await forgetTheRequest(rt, job);
    return "forgotten";
  }
  const turn = selectTurn(state.recent, job.trigger);
  if (!turn) return "conversation_gone";
  if (job.waitsForBurst && turn.current.id !== job.trigger.id) return "superseded";
  const remembered = await rememberedPeople(rt, job, [...turn.history, turn.current], replier);
  const prompt = buildPrompt({
    persona: s.BOT_PERSONA,
    botName: job.bot.name,
    botUserId: job.bot.userId,
    now: new Date(rt.now()),
    summary: state.summary,
    systemNotes: job.systemNotes,
    people: remembered,
    history: turn.history,
    current: turn.current,
    budgetTokens: s.PROMPT_TOKEN_BUDGET,
  });
  // An answer an earlier attempt began to post was already judged, counted and written: finish it as it is.
  const resuming = progress.text !== undefined;
  if (!resuming && kind === "judge" && !(await judgeWithinCap(rt, job, () => rt.llm.judge(prompt)))) {
    return "judge_no";
  }
  const allowance = resuming ? "allowed" : await checkReplyRate(rt, job);
  if (allowance !== "allowed") {
    if (allowance === "notify") {
      await replier.send(job, RATE_LIMIT_NOTICE);
      progress.done = true;
    }
    return "rate_limited";
  }
  const text = progress.text ?? (await rt.llm.generate(prompt, { required: job.required }));
  if (text === null) return "skipped";
  progress.text = text;
  const ids = await replier.send(job, text, {
    from: progress.partsPosted,
    onPart: (index) => (progress.partsPosted = index + 1),
  });
  progress.done = true;
  const now = rt.now();
  await rt.store.recordReply(job.key, {
    conversationId: job.conversationId,
    triggerId: job.trigger.id,
    reply: {
      id: ids[0] ?? `reply-${job.trigger.id}`,
      role: "assistant",
      authorId: job.bot.userId,
      authorName: job.bot.name,
      text,
      ts: Math.max(now, turn.current.ts + 1),
      // Whom it answered: "forget me" removes the bot's answers to a person with the person's own messages.
      replyToAuthorId: turn.current.authorId,
    },
    answeredThrough: { id: turn.current.id, ts: turn.current.ts },
    answered: turn.answered,
    trace: {
      conversationId: job.conversationId,
      triggerId: job.trigger.id,
      reason: job.reason,
      kind,
      at: now,
      promptTokens: prompt.tokens,
      droppedMessages: prompt.droppedMessages,
      messages: prompt.messages,
    },
  });
  rt.log.info("reply_posted", {
    platform: job.key.platform,
    trigger: job.trigger.id,
    parts: ids.length,
    chars: text.length,
    prompt_tokens: prompt.tokens,
    dropped: prompt.droppedMessages,
  });
  await publishMemoryJob(rt, job);
  return "answered";
}
