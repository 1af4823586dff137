/**
 * @module
 * An answer that asks a person to approve a confirm tool's call (lib/jobs/tool-loop.ts) opens the approval once its
 * question is out (lib/jobs/post.ts, before the answer is recorded, so that a retry after a failure in between still
 * opens it): under the question's message id, the call (kept in the answer's draft until then), the asker, when it
 * expires, and the continuation job sealed as every job payload is (lib/queue/sealed-job.ts: the place and the asker
 * never travel in the clear). The continuation is also published now, delayed by APPROVAL_TTL_MINUTES: on time it finds
 * the approval pending, expires it and says so; otherwise it finds it answered (./continuation.ts). Opening twice
 * changes nothing (the record is created once; the delayed job's deduplication id is the same). Where the platform
 * shows controls, they are put on the question once it is open (an edit, so that a press always finds it, and a
 * streamed question gets them too); a platform that refuses leaves the question as it is, answered by a reaction.
 * A ✅ or ❌ (or a YES or NO) can come between the question's post and its open: the asker's (kept by ./decide.ts)
 * decides it as it opens, and its continuation is published at once. A press cannot: the controls come after.
 */
import type { PendingCall } from "../conversation/draft.ts";
import type { JobOf } from "../queue/job.ts";
import { sealJob } from "../queue/sealed-job.ts";
import type { AnswerScope } from "../jobs/scope.ts";
import { errorMessage } from "../log.ts";
import { closePendingQuestion } from "./decide.ts";

/** How long a decided approval is kept past its expiry: QStash's retries of its continuation end well within it. */
const KEPT_AFTER_SECONDS = 2 * 60 * 60;
/** The expiry's continuation runs this long after the approval's end, so that it never finds it still pending. */
const EXPIRY_MARGIN_SECONDS = 5;

/** What a question is named by while the call that sends it is unconfirmed: its answer's trigger is unique there. */
const unsureName = (job: AnswerScope["job"]) => `unsure:${job.trigger.id}`;

/** The names this job's question goes by: while its send is unconfirmed, then its id (`questionId`, once known). */
export const askingNames = (job: AnswerScope["job"], questionId?: string): string[] =>
  questionId === undefined ? [unsureName(job)] : [unsureName(job), questionId];

/**
 * Where a reply answers questions, the question is the place's pending one from before the call that sends it: a
 * send whose answer is lost (the text out, its id unknown until a retry finds it) leaves the person the question,
 * and a YES then is the approval's, kept under the question's unconfirmed name, never a text for the model, which
 * would ask it again. Any earlier question still pending is closed first, as any message of the bot's closes it.
 */
export async function questionStarting(scope: AnswerScope): Promise<void> {
  const { rt, job, replier, attempt } = scope;
  if (!attempt.draft.approval || attempt.draft.posted.length > 0 || replier.approvalWay(job) !== "reply") return;
  await closePendingQuestion(rt, job.key, "bot", askingNames(job));
  await rt.approvals.nameAsked(job.key, unsureName(job), rt.settings.APPROVAL_TTL_MINUTES * 60);
}

/**
 * Once the question is out (or found), it is named by its id, not only once its approval opens: a YES in between is
 * the approval's, kept for the open (./decide.ts), and a YES kept under its unconfirmed name goes with it.
 */
export async function questionPosted(scope: AnswerScope, questionId: string): Promise<void> {
  const { rt, job, replier, attempt } = scope;
  if (!attempt.draft.approval || attempt.draft.posted[0] !== questionId || replier.approvalWay(job) !== "reply") return;
  const windowSeconds = rt.settings.APPROVAL_TTL_MINUTES * 60;
  await closePendingQuestion(rt, job.key, "bot", askingNames(job, questionId));
  await rt.approvals.nameAsked(job.key, questionId, windowSeconds);
  await rt.approvals.carryEarly(job.key, unsureName(job), questionId, windowSeconds);
}

export async function openApproval(scope: AnswerScope, call: PendingCall): Promise<void> {
  const { rt, job, replier, attempt, where } = scope;
  const questionId = attempt.draft.posted[0];
  const target = replier.approvalTarget(job);
  if (!questionId || !target) return;
  const minutes = rt.settings.APPROVAL_TTL_MINUTES;
  const { waitsForBurst: _burst, signByWebhook: _sign, ...rest } = job;
  const continuation: JobOf<"approval"> = {
    ...rest,
    kind: "approval",
    // Its own answer record and claim, unique in the tenant as the question's trigger is; nothing of the place in
    // the clear that the question's job did not carry.
    trigger: { ...job.trigger, id: `approval:${job.trigger.id}`, ts: rt.now() },
    approvalQuestion: questionId,
    replyTarget: target,
    reason: "approval",
    required: true,
  };
  const opened = await rt.approvals.open(job.key, questionId, {
    asker: job.trigger.authorId,
    windowSeconds: minutes * 60,
    call,
    job: JSON.stringify(await sealJob(continuation, rt.secrets.jobs)),
    ttlSeconds: minutes * 60 + KEPT_AFTER_SECONDS,
    byReply: replier.approvalWay(job) === "reply",
  });
  const published = await rt.queue.publish(continuation, {
    delaySeconds: minutes * 60 + EXPIRY_MARGIN_SECONDS,
    step: 1,
  });
  // The asker answered before it opened (or since, for a retry): its continuation goes now, as ./decide.ts would
  // have published it (the same deduplication id), and the outcome, not controls, goes on the question.
  const decided = opened.state === "approved" || opened.state === "denied";
  if (decided) await rt.queue.publish(continuation);
  const question = attempt.draft.text ?? "";
  const offered =
    opened.state === "pending" &&
    (await replier.offerControls(job, questionId, question).then(
      () => true,
      (err: unknown) => {
        rt.log.warn("approval_controls_unoffered", { ...where, question: questionId, error: errorMessage(err) });
        return false;
      },
    ));
  rt.log.info("approval_opened", {
    ...where,
    tool: call.tool,
    // The bot's question: a message id, no person's (a reaction to it names it too).
    question: questionId,
    opened: opened.opened,
    state: opened.state,
    job: published.messageId,
    deduplicated: published.deduplicated,
    offered,
  });
}
