/**
 * @module
 * Posting one trigger's answer exactly once over the attempts of its job. The text is in the attempt's draft
 * (./attempt.ts) before the first part's call, and each accepted part's id before the next part's call; a failed
 * attempt hands back what it got out with its claim. Any later attempt (QStash's retry, or the failure callback)
 * finishes that same text, asking the platform first about a part whose call never came back, then records it:
 * it never writes or posts a new one.
 */
import type { AnswerTrace } from "../conversation/answer-trace.ts";
import type { PostedOutcome } from "../conversation/draft.ts";
import { GiveUp, RetryLater } from "../errors.ts";
import type { PartProgress } from "../message.ts";
import { forgetTheRequest } from "../memory/forget.ts";
import { closePendingQuestion } from "../approvals/decide.ts";
import { askingNames, openApproval, questionPosted, questionStarting } from "../approvals/open.ts";
import { offerFeedback } from "../feedback/offer.ts";
import { publishMemoryJob } from "./memory-job.ts";
import type { AnswerScope } from "./scope.ts";
import { finishStream } from "./stream-end.ts";

/** `onlyIfStarted` found that no part of the draft ever reached the platform. */
export class NothingPosted extends Error {}

export interface FinishOptions {
  /** The prompt and why the bot answered, kept with the answer for the admin view. */
  trace?: AnswerTrace;
  /** Finish only an answer of which some part went out (found if need be); else throw NothingPosted. */
  onlyIfStarted?: boolean;
}

/**
 * Posts the attempt's draft (from its first part not yet posted) and, for an answer, records the bot's turn and
 * publishes the memory job. Notices are not recorded: the caller marks the trigger handled.
 */
export async function finishDraft(scope: AnswerScope, opts: FinishOptions = {}): Promise<PostedOutcome> {
  const { rt, job, attempt } = scope;
  const { trace } = opts;
  await postDraft(scope, opts.onlyIfStarted ?? false);
  // Where a reply answers questions, a YES answers only the question it directly follows: any other message of the
  // bot's closes the place's pending question (not the one this draft asks, which a retry may have opened already;
  // nor by an approval's own result or cancellation, which asks nothing).
  if (scope.replier.approvalWay(job) === "reply" && job.kind !== "approval")
    await closePendingQuestion(
      rt,
      job.key,
      "bot",
      attempt.draft.approval ? askingNames(job, attempt.draft.posted[0]) : [],
    );
  // A question that asks to approve a call opens its approval before the answer is recorded: a retry after a
  // failure in between finds the trigger still to finish, and opens it then (opening twice changes nothing).
  if (attempt.draft.approval) await openApproval(scope, attempt.draft.approval);
  const { text = "", saw, outcome = "answered", posted } = attempt.draft;
  // The "forget me" request itself stays until its confirmation is out, so that a retry still confirms.
  if (outcome === "forgotten") await forgetTheRequest(rt, job);
  if (outcome !== "answered" || !saw) return outcome;
  // Once the answer is out whole: a retry puts them on again (the same edit), before the turn is recorded.
  await offerFeedback(scope);
  // A streamed answer is the bot's turn from its first words: before what people wrote while it was shown.
  const ts = Math.max(attempt.draft.speakingSince ?? rt.now(), saw.ts + 1);
  const recorded = await attempt.record({ id: posted[0] ?? `reply-${job.trigger.id}`, ts }, trace);
  rt.log.info("reply_posted", {
    platform: job.key.platform,
    trigger: job.trigger.id,
    parts: posted.length,
    chars: text.length,
    prompt_tokens: saw.promptTokens,
    dropped: saw.droppedMessages,
    ...(trace ? {} : { resumed: true }),
  });
  // A conversation that expired meanwhile is not resurrected, and there is nothing to remember it by. The memory job
  // gets the place's visibility as this job resolved it, so that it need not ask again.
  if (recorded) await publishMemoryJob(rt, job, scope.visibility);
  return "answered";
}

async function postDraft(scope: AnswerScope, onlyIfStarted: boolean): Promise<void> {
  const { rt, job, replier, attempt } = scope;
  await finishStream(scope);
  const { text, posted, postingSince } = attempt.draft;
  if (text === undefined) throw new Error("a draft without text cannot be posted");
  const progress: PartProgress = {
    answerId: job.trigger.id,
    from: posted.length,
    ...(postingSince !== undefined ? { unsure: { since: postingSince } } : {}),
    async starting(_index, unconfirmed = false) {
      // A call that may have reached the person (its answer lost, and no way to look) counts as gone out.
      if (onlyIfStarted && attempt.draft.posted.length === 0 && !unconfirmed)
        throw new NothingPosted("no part of the answer went out");
      await attempt.partStarting();
      await questionStarting(scope);
    },
    async posted(_index, id, keep = false) {
      attempt.partPosted(id);
      // The id is durable before anything else may fail: a retry could not find the part again.
      if (keep) await attempt.keepPosted();
      await questionPosted(scope, id);
    },
  };
  // Checked at every send, not only before the model call: a STOP may have come while the answer was written, or
  // before the retry that finishes it, or before the failure callback.
  if (job.optOuts && (await rt.optOuts.isOptedOut(job.key, job.trigger.authorId)))
    throw new GiveUp("the person asked not to be messaged", "opted_out");
  try {
    await replier.send(job, text, progress);
  } catch (err) {
    if (err instanceof RetryLater) attempt.partRefused(postingSince);
    throw err;
  }
}
