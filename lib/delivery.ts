/**
 * @module
 * Posting one trigger's answer exactly once over the attempts of its job. The text goes into the trigger's reply
 * record (lib/conversation/draft.ts) before the first part's call, and each accepted part's id before the next
 * part's call; a failed attempt leaves there what it got out (ReplyStore.releaseClaim). Any later attempt (QStash's
 * retry, or the failure callback) finishes that same text, asking the platform first about a part whose call never
 * came back, then records it: it never writes or posts a new one.
 */
import type { AnswerTrace } from "./conversation/answer-trace.ts";
import type { Draft, PostedOutcome } from "./conversation/draft.ts";
import { CLAIM_TTL_SECONDS } from "./conversation/reply-store.ts";
import { RetryLater } from "./errors.ts";
import { forgetTheRequest } from "./memory/forget.ts";
import { publishMemoryJob } from "./memory/hooks.ts";
import { finishStream } from "./streaming/finish.ts";
import type { PartProgress } from "./message.ts";
import type { Replier } from "./pipeline.ts";
import type { Job } from "./queue/job.ts";
import type { Runtime } from "./runtime.ts";

/** A third of the claim's life: an attempt that posts for longer (a streamed answer) keeps renewing it. */
const RENEW_AFTER_MS = (CLAIM_TTL_SECONDS * 1000) / 3;

/** One attempt at a trigger's answer: the token of its claim, and the draft as far as it got. */
export interface Attempt {
  token: string;
  draft: Draft;
  /** When the claim was last taken or renewed, ms. */
  renewedAt: number;
}

/** Another attempt holds the claim by now (this one outlived it): this one must not post on. */
class ClaimLost extends Error {}

/** `onlyIfStarted` found that no part of the draft ever reached the platform. */
export class NothingPosted extends Error {}

export interface FinishOptions {
  /** The prompt and why the bot answered, kept with the answer for the admin view. */
  trace?: AnswerTrace;
  /** Finish only an answer of which some part went out (found if need be); else throw NothingPosted. */
  onlyIfStarted?: boolean;
}

/**
 * Posts `attempt.draft` (from its first part not yet posted) and, for an answer, records the bot's turn and
 * publishes the memory job. Notices are not recorded: the caller marks the trigger handled.
 */
export async function finishDraft(rt: Runtime, job: Job, replier: Replier, attempt: Attempt, opts: FinishOptions = {}): Promise<PostedOutcome> {
  const { trace } = opts;
  await postDraft(rt, job, replier, attempt, opts.onlyIfStarted ?? false);
  const { text = "", saw, outcome = "answered", posted } = attempt.draft;
  // The "forget me" request itself stays until its confirmation is out, so that a retry still confirms.
  if (outcome === "forgotten") await forgetTheRequest(rt, job);
  if (outcome !== "answered" || !saw) return outcome;
  const now = rt.now();
  const recorded = await rt.store.replies.recordReply(job.key, {
    conversationId: job.conversationId,
    triggerId: job.trigger.id,
    reply: {
      id: posted[0] ?? `reply-${job.trigger.id}`,
      role: "assistant",
      authorId: job.bot.userId,
      authorName: job.bot.name,
      text,
      ts: Math.max(now, saw.ts + 1),
      // Whom it answered: "forget me" removes the bot's answers to a person with the person's own messages.
      replyToAuthorId: saw.answered[0]!,
    },
    answeredThrough: { id: saw.id, ts: saw.ts },
    answered: saw.answered,
    arrivals: saw.arrivals,
    ...(trace ? { trace } : {}),
  });
  rt.log.info("reply_posted", {
    platform: job.key.platform,
    trigger: job.trigger.id,
    parts: posted.length,
    chars: text.length,
    prompt_tokens: saw.promptTokens,
    dropped: saw.droppedMessages,
    ...(trace ? {} : { resumed: true }),
  });
  // A conversation that expired meanwhile is not resurrected, and there is nothing to remember it by.
  if (recorded) await publishMemoryJob(rt, job);
  return "answered";
}

async function postDraft(rt: Runtime, job: Job, replier: Replier, attempt: Attempt, onlyIfStarted: boolean): Promise<void> {
  await finishStream(rt, job, replier, attempt);
  const { text, posted, postingSince } = attempt.draft;
  if (text === undefined) throw new Error("a draft without text cannot be posted");
  const progress: PartProgress = {
    answerId: job.trigger.id,
    from: posted.length,
    ...(postingSince !== undefined ? { unsure: { since: postingSince } } : {}),
    async starting(_index, unconfirmed = false) {
      // A call that may have reached the person (its answer lost, and no way to look) counts as gone out.
      if (onlyIfStarted && attempt.draft.posted.length === 0 && !unconfirmed) throw new NothingPosted("no part of the answer went out");
      await keepClaim(rt, job, attempt);
      // The earliest call of this part counts: an earlier attempt's post of it may land late.
      attempt.draft = { ...attempt.draft, postingSince: attempt.draft.postingSince ?? rt.now() };
      await rt.store.replies.saveDraft(job.key, job.trigger.id, attempt.draft);
    },
    async posted(_index, id) {
      const { postingSince: _accepted, ...rest } = attempt.draft;
      attempt.draft = { ...rest, posted: [...rest.posted, id] };
    },
  };
  try {
    await replier.send(job, text, progress);
  } catch (err) {
    // Rate limited: this attempt's call was refused before anything happened, so the next attempt need not ask
    // (unless an earlier attempt's call of the same part is still unconfirmed).
    if (err instanceof RetryLater && attempt.draft.postingSince !== postingSince) {
      const { postingSince: _refused, ...rest } = attempt.draft;
      attempt.draft = rest;
    }
    throw err;
  }
}

/** Renews the attempt's claim once a third of its life has gone by (no command before); throws when it was lost. */
export async function keepClaim(rt: Runtime, job: Job, attempt: Attempt): Promise<void> {
  if (rt.now() - attempt.renewedAt < RENEW_AFTER_MS) return;
  if (!(await rt.store.replies.renewClaim(job.key, job.trigger.id, attempt.token))) {
    throw new ClaimLost("another attempt holds this answer's claim by now");
  }
  attempt.renewedAt = rt.now();
}
