/**
 * @module
 * The two flows of the design: `ingest` runs inside the webhook request (one Redis round trip, at most one
 * publish), `runJob` runs in a QStash delivery (claim, judge or generate, post and record: lib/delivery.ts).
 */
import { buildPrompt } from "./context/prompt.ts";
import type { PostedOutcome } from "./conversation/draft.ts";
import type { ClaimResult } from "./conversation/reply-store.ts";
import { parentFor } from "./conversation/parent.ts";
import { isResetRequest } from "./conversation/reset.ts";
import type { RecordStatus } from "./conversation/store.ts";
import { selectTurn } from "./conversation/turn.ts";
import { decideResponse, explicitTrigger, type Decision, type DecisionReason } from "./decide/index.ts";
import { APOLOGY, finishDraft, type Attempt } from "./delivery.ts";
import { GiveUp, RetryLater, using } from "./errors.ts";
import { judgeWithinCap } from "./limits/judge-cap.ts";
import { capInboundMessage } from "./limits/message-length.ts";
import { checkReplyRate, RATE_LIMIT_NOTICE } from "./limits/reply-rate.ts";
import { BUDGET_NOTICE, checkTenantBudget, spendTenantBudget } from "./limits/tenant-budget.ts";
import { jobLogFields, loggedId, loggedPlace } from "./log-ids.ts";
import type { BotIdentity, InboundMessage, ParentMessage, PartProgress, Visibility } from "./message.ts";
import { errorMessage } from "./log.ts";
import { asksToBeForgotten, forgetPerson } from "./memory/forget.ts";
import { rememberedPeople } from "./memory/hooks.ts";
import { recalledForAnswer } from "./memory/recall/answer-recall.ts";
import { optOutsFor } from "./opt-outs.ts";
import type { AnswerFor, AnswerStream, IngestOptions, StreamState, UnsureOpen, WorkingSign } from "./platforms/adapter.ts";
import { whileWorking, writeAnswer } from "./streaming/answer.ts";
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
  /** The reply job published for the message whose working sign the webhook is to put up. */
  replyJob?: Job;
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
        ...(opts.installationKey ? { installationKey: opts.installationKey } : {}),
      }),
      msg.consent && optOuts.record(msg.key, msg.author.id, msg.consent),
    ]),
  );
  const where = { ...(await loggedPlace(rt, msg.key, opts.logIds)), message: msg.id };
  // No installation for this tenant (never installed, or uninstalled): nothing was recorded, nothing is answered.
  if (status === "not_installed") {
    rt.log.info("tenant_not_installed", { platform: msg.key.platform, tenant: msg.key.tenant });
    return { status, published: false };
  }
  // A job started on it already. (An `unpublished` delivery goes on: the earlier one may have failed to publish.)
  if (status === "duplicate") {
    rt.log.info("duplicate_dropped", where);
    return { status, published: false };
  }
  // The platform answers START and HELP itself, the route a picture without words: nothing to decide. A 👎 on an
  // answer is decided (never answered) so that the decision log says why the bot goes quiet.
  if (msg.noReply && msg.consent !== "opt_out" && !msg.feedback) return { status, published: false };
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
    ...(kind === "reply" && opts.signByWebhook && s.SHOW_WORKING ? { signByWebhook: true as const } : {}),
  };
  const published = await using("qstash", () => rt.queue.publish(kind, job, { delaySeconds: opts.delaySeconds }));
  rt.log.info("job_published", { ...where, kind, job: published.messageId, deduplicated: published.deduplicated });
  return { status, decision, published: true, ...(job.signByWebhook ? { replyJob: job } : {}) };
}

/** The platform side of a job (lib/platforms/replier.ts): the adapter of the job's platform, for its tenant. */
export interface Replier {
  /** False when the person must not be messaged (an opted-out number): the job ends before any model call. */
  canReach(job: Job): Promise<boolean>;
  /**
   * Posts an answer on the platform, split into the platform's parts, as `progress` says (lib/delivery.ts keeps it
   * durable); returns the ids of the messages this call posted or found.
   */
  send(job: Job, text: string, progress: PartProgress): Promise<string[]>;
  /** Who can read the job's place, asked of the platform when the message did not say (lib/memory/visibility.ts). */
  placeVisibility(job: Job): Promise<Visibility>;
  /**
   * The message the job's place or `replyToId` is about, asked of the platform (lib/conversation/parent.ts);
   * undefined when the platform has nothing to look up for it (no reply, and a place that cannot be about a message).
   */
  fetchParent(job: Job, replyToId: string | undefined): Promise<ParentMessage | null | undefined>;
  /** How the job's platform shows an answer as it is written; null when it cannot (lib/streaming/answer.ts). */
  streaming(job: Job): JobStreaming | null;
  /** Shows that the bot is working on the job's answer (a no-op where the platform has no sign); see AnswerFor. */
  working(job: Job, sign?: Pick<AnswerFor, "signUp" | "beforeShowing">): Promise<WorkingSign>;
}

/** A platform's StreamingCapability for one job's place. */
export interface JobStreaming {
  readonly maxChars: number;
  readonly intervalMs: number;
  /** `unsure`: an earlier attempt began to open it then (ms), with these texts, and never heard back. */
  open(text: string, unsure?: UnsureOpen): Promise<AnswerStream | null>;
  resume(state: StreamState): AnswerStream;
}

export type JobOutcome =
  | PostedOutcome
  | "skipped"
  | "judge_no"
  | "already_answered"
  | "covered"
  | "conversation_gone"
  | "unreachable"
  | "superseded"
  | "gave_up";

/** Outcomes after which a redelivery of the job must not try again. ("answered" is marked with the bot's turn.) */
const MARKS_HANDLED: ReadonlySet<JobOutcome> = new Set([
  "forgotten",
  "rate_limited",
  "apologised",
  "skipped",
  "judge_no",
  "conversation_gone",
  "unreachable",
  "superseded",
  "gave_up",
  "over_budget",
]);

export async function runJob(rt: Runtime, kind: JobKind, job: Job, replier: Replier): Promise<JobOutcome> {
  const where = { ...(await jobLogFields(rt, job)), kind };
  const token = crypto.randomUUID();
  const claim = await rt.store.replies.claimReply(job.key, job.conversationId, job.trigger, token);
  if (claim.status === "busy") throw new RetryLater("another attempt is answering this message", claim.retryAfterSeconds);
  if (claim.status !== "claimed") {
    const outcome = ({ done: "already_answered", covered: "covered" } as const)[claim.status];
    rt.log.info("job_ended", { ...where, outcome });
    return outcome;
  }
  const attempt: Attempt = { token, draft: claim.draft, renewedAt: rt.now() };
  try {
    // An answer an earlier attempt began to post is finished as it is: never judged, generated or posted anew.
    const work =
      attempt.draft.text !== undefined
        ? finishDraft(rt, job, replier, attempt)
        : whileWorking(rt, kind, job, replier, claim.signUp, (sign) => answer(rt, kind, job, claim, replier, attempt, sign));
    const outcome = await work.catch((err: unknown) => {
      // Retrying cannot help (opted-out number, unknown channel, no token): end the job for good.
      if (!(err instanceof GiveUp)) throw err;
      rt.log.warn("job_gave_up", { ...where, code: err.code });
      return "gave_up" as const;
    });
    if (MARKS_HANDLED.has(outcome)) await rt.store.replies.markHandled(job.key, job.trigger.id);
    if (outcome !== "gave_up") rt.log.info("job_ended", { ...where, outcome });
    return outcome;
  } catch (err) {
    // What went out stays in the draft, so that QStash's retry finishes it instead of starting over.
    await rt.store.replies
      .releaseClaim(job.key, job.trigger.id, token, attempt.draft)
      .catch((releaseErr: unknown) => rt.log.error("claim_release_failed", { ...where, message: errorMessage(releaseErr) }));
    throw err;
  }
}

async function answer(
  rt: Runtime,
  kind: JobKind,
  job: Job,
  claim: Extract<ClaimResult, { status: "claimed" }>,
  replier: Replier,
  attempt: Attempt,
  sign: WorkingSign,
): Promise<JobOutcome> {
  const s = rt.settings;
  const notice = (text: string, outcome: PostedOutcome) => {
    attempt.draft = { ...attempt.draft, text, outcome, posted: [] };
    return finishDraft(rt, job, replier, attempt);
  };
  const { state } = claim;
  // Nothing of the conversation is left to answer from: someone who was owed an answer hears so, once.
  if (!state) return claim.gone === "expired" && job.required && (await replier.canReach(job)) ? notice(APOLOGY, "apologised") : "conversation_gone";
  if (!(await replier.canReach(job))) return "unreachable";
  // The trigger itself, not the author's latest message: a question right after "forget me" gets its own answer.
  if (asksToBeForgotten(job, state.recent)) {
    const reply = await forgetPerson(rt, job);
    return reply ? notice(reply.text, reply.outcome) : "rate_limited";
  }
  const turn = selectTurn(state.recent, job.trigger, state.answeredThroughBy?.[job.trigger.authorId]);
  if (!turn) return "conversation_gone";
  if (job.waitsForBurst && turn.current.id !== job.trigger.id) return "superseded";
  const remembered = await rememberedPeople(rt, job, [...turn.history, turn.current], replier);
  const [earlier, parent] = await Promise.all([
    recalledForAnswer(rt, job, state.recent, [...turn.history, turn.current], replier),
    parentFor(rt, job, state, turn.current, replier),
  ]);
  const prompt = buildPrompt({
    persona: s.BOT_PERSONA,
    botName: job.bot.name,
    botUserId: job.bot.userId,
    now: new Date(rt.now()),
    ...(parent ? { parent } : {}),
    summary: state.summary,
    systemNotes: job.systemNotes,
    people: remembered,
    earlier,
    history: turn.history,
    current: turn.current,
    budgetTokens: s.PROMPT_TOKEN_BUDGET,
  });
  // Past the tenant's daily budget no model call is made, the judge's included.
  const budget = await checkTenantBudget(rt, job);
  if (budget === "notify") return notice(BUDGET_NOTICE, "over_budget");
  if (budget === "quiet") return "over_budget";
  // The judge cap and the rate limit count a trigger once: only the first attempt asks them.
  if (kind === "judge" && !(await judgeWithinCap(rt, job, claim.first, () => rt.llm.judge(prompt)))) return "judge_no";
  const allowance = claim.first ? await checkReplyRate(rt, job) : "allowed";
  if (allowance === "notify") return notice(RATE_LIMIT_NOTICE, "rate_limited");
  if (allowance === "quiet") return "rate_limited";
  let used = 0;
  const text = await writeAnswer(rt, job, replier, attempt, prompt, sign, (tokens) => (used += tokens));
  await spendTenantBudget(rt, job, used);
  if (text === null) return "skipped";
  const saw = { id: turn.current.id, ts: turn.current.ts, answered: turn.answered, arrivals: claim.arrivals };
  attempt.draft = {
    ...attempt.draft,
    text,
    outcome: "answered",
    posted: [],
    saw: { ...saw, promptTokens: prompt.tokens, droppedMessages: prompt.droppedMessages },
  };
  return finishDraft(rt, job, replier, attempt, {
    trace: {
      conversationId: job.conversationId,
      triggerId: job.trigger.id,
      reason: job.reason,
      kind,
      at: rt.now(),
      promptTokens: prompt.tokens,
      droppedMessages: prompt.droppedMessages,
      messages: prompt.messages,
    },
  });
}
