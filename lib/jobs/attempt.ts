/**
 * @module
 * One attempt at a trigger's answer: the claim it holds, and the draft of what it posts. This module owns every
 * change of the draft (lib/conversation/draft.ts: writing, then written), as named transitions (their table is in
 * docs/architecture.md, "The draft's phases"): the text is written once, then each part is started, posted or
 * refused, a stream is opening, opened, shown, finished or closed. Saves happen where a transition must outlive a
 * job killed outright: before a call whose answer may never come back, before a native stream adds to its opening
 * (until then a retry finds it by what it opened with; a message edited as the answer grows is found like any
 * posted part), and before the streamed message is touched for the last time. Anything else a failing attempt hands
 * back with its claim (`release`), so that QStash's retry finishes what this one began instead of starting over.
 */
import type { AnswerTrace } from "../conversation/answer-trace.ts";
import type { AnswerSaw, Draft, PendingCall, PostedOutcome } from "../conversation/draft.ts";
import type { ClaimResult } from "../conversation/reply-store.ts";
import { CLAIM_TTL_SECONDS } from "../conversation/store-options.ts";
import type { StreamState } from "../message.ts";
import { APOLOGY } from "../notices.ts";
import type { UnsureOpen } from "../platforms/answer-stream.ts";
import type { Job } from "../queue/job.ts";
import type { Runtime } from "../runtime.ts";

/** A third of the claim's life: an attempt that posts for longer (a streamed answer) keeps renewing it. */
const RENEW_AFTER_MS = (CLAIM_TTL_SECONDS * 1000) / 3;

/** Another attempt holds the claim by now (this one outlived it): this one must not post on. */
class ClaimLost extends Error {}

/** What a claim read when it was taken: the conversation, the draft earlier attempts left, the sign's mark. */
export type Claimed = Extract<ClaimResult, { status: "claimed" }>;

export class Attempt {
  readonly #rt: Runtime;
  readonly #job: Job;
  readonly #token: string;
  #draft: Draft;
  /** When the claim was last taken or renewed, ms. */
  #renewedAt: number;
  /** The opened native stream is in memory only: saved before anything is added to its opening (`streamShowing`). */
  #streamUnsaved = false;

  constructor(rt: Runtime, job: Job, claim: { token: string; draft: Draft }) {
    this.#rt = rt;
    this.#job = job;
    this.#token = claim.token;
    this.#draft = claim.draft;
    this.#renewedAt = rt.now();
  }

  get draft(): Readonly<Draft> {
    return this.#draft;
  }

  /** An earlier attempt wrote the text: this one posts it as it is, never a new one. */
  get written(): boolean {
    return this.#draft.text !== undefined;
  }

  /** The text this attempt posts from now on: a notice, or the answer with what it saw (to record it). */
  write(text: string, outcome: PostedOutcome, saw?: AnswerSaw): void {
    this.#draft = { ...this.#draft, text, outcome, posted: [], ...(saw ? { saw } : {}) };
  }

  /** The answer written is the question that asks a person to approve `call` (lib/approvals/open.ts). */
  asksApproval(call: PendingCall): void {
    const draft = this.#draft;
    if (draft.text === undefined) throw new Error("only a written answer asks for an approval");
    this.#draft = { ...draft, approval: call };
  }

  /** The failure callback's apology: in the stream an earlier attempt left showing part of an answer, if any. */
  apologise(): void {
    const { stream } = this.#draft;
    this.#draft = { ...(stream ? { stream } : {}), posted: [], text: APOLOGY, outcome: "apologised" };
  }

  /** Before the call that posts the next part: durable, so that an attempt that never hears back leaves a time. */
  async partStarting(): Promise<void> {
    await this.keepClaim();
    // The earliest call of this part counts: an earlier attempt's post of it may land late.
    this.#draft = { ...this.#draft, postingSince: this.#draft.postingSince ?? this.#rt.now() };
    await this.#save();
  }

  /**
   * A message a retry could not find went out (lib/platforms/parts.ts `unfindable`): saved now rather than only
   * handed back with the claim, whose release fails when Redis does, and a retry would then post it a second time.
   */
  async keepPosted(): Promise<void> {
    await this.#save();
  }

  partPosted(id: string): void {
    const { postingSince: _accepted, ...rest } = this.#draft;
    this.#draft = { ...rest, posted: [...rest.posted, id] };
  }

  /**
   * The platform refused the part's call before anything happened (rate limited): unless an earlier attempt's call
   * of it is still unconfirmed (`before`), the next attempt need not ask the platform about it.
   */
  partRefused(before: number | undefined): void {
    if (this.#draft.postingSince === before) return;
    const { postingSince: _refused, ...rest } = this.#draft;
    this.#draft = rest;
  }

  /**
   * Before the call that opens the answer's stream, with the text it opens with: durable, so that a stream whose
   * opening was never heard back is known by its text; the bot's turn so far goes into the conversation with it.
   * Answers the earlier attempts' unconfirmed opening, if any.
   */
  async streamOpening(text: string): Promise<UnsureOpen | undefined> {
    const { postingSince: since, openings = [], speakingSince = this.#rt.now() } = this.#draft;
    this.#draft = {
      ...this.#draft,
      postingSince: since ?? this.#rt.now(),
      openings: [...openings, text],
      speakingSince,
    };
    // In the same round trip: for the decider the bot speaks from its first words (lib/conversation/speaking.ts).
    const job = this.#job;
    await this.#rt.store.replies.saveOpeningDraft(job.key, job.conversationId, job.trigger.id, this.#draft, {
      id: `speaking-${job.trigger.id}`,
      role: "assistant",
      authorId: job.bot.userId,
      authorName: job.bot.name,
      text,
      ts: speakingSince,
      replyToAuthorId: job.trigger.authorId,
    });
    this.#streamUnsaved = false;
    return since === undefined ? undefined : { since, openings };
  }

  /**
   * The opening call came back: with the stream, or with none, in which case an earlier attempt's unconfirmed
   * opening is still to be looked for. The stream goes with the next save: until then a retry after a job killed
   * outright looks for it from the opening's save (PlatformAdapter streaming `unsure`), and finds it.
   */
  streamOpened(stream: StreamState | null, unsure: UnsureOpen | undefined): void {
    const { postingSince: _opened, openings: _texts, ...rest } = this.#draft;
    this.#draft = stream || !unsure ? rest : { ...rest, postingSince: unsure.since };
    if (!stream) return;
    this.#draft = { ...this.#draft, stream: { ...stream } };
    this.#streamUnsaved = stream.mode === "native";
  }

  /** Before a native stream adds to its opening: from then on only the draft can tell a retry which one it is. */
  async streamShowing(): Promise<void> {
    if (this.#streamUnsaved) await this.#save();
  }

  /** The stream shows more (kept in memory: a failing attempt hands it back with its claim). */
  streamShown(state: StreamState): void {
    this.#draft = { ...this.#draft, stream: { ...state } };
  }

  /** The final text is durable before the streamed message is touched for the last time (the stream with it). */
  async streamFinishing(): Promise<void> {
    await this.#save();
  }

  /** The streamed message holds the answer's first part, its stream closed: that part is posted. */
  streamFinished(state: StreamState): void {
    this.#draft = { ...this.#draft, stream: { ...state }, posted: [state.id] };
  }

  /** The stream was ended as it stood (this attempt failed, or an earlier one left it open). */
  streamClosed(state: StreamState): void {
    this.#draft = { ...this.#draft, stream: { ...state } };
  }

  /** Renews the claim once a third of its life has gone by (no command before); throws when it was lost. */
  async keepClaim(): Promise<void> {
    if (this.#rt.now() - this.#renewedAt < RENEW_AFTER_MS) return;
    if (!(await this.#rt.store.replies.renewClaim(this.#job.key, this.#job.trigger.id, this.#token))) {
      throw new ClaimLost("another attempt holds this answer's claim by now");
    }
    this.#renewedAt = this.#rt.now();
  }

  /** Records the answer as the bot's turn (with its trace); false when the conversation is gone meanwhile. */
  async record(reply: { id: string; ts: number }, trace: AnswerTrace | undefined): Promise<boolean> {
    const { text = "", saw } = this.#draft;
    if (!saw) throw new Error("only an answer with what it saw is recorded");
    const job = this.#job;
    return this.#rt.store.replies.recordReply(job.key, {
      conversationId: job.conversationId,
      triggerId: job.trigger.id,
      reply: {
        id: reply.id,
        role: "assistant",
        authorId: job.bot.userId,
        authorName: job.bot.name,
        text,
        ts: reply.ts,
        // Whom it answered: "forget me" removes the bot's answers to a person with the person's own messages.
        replyToAuthorId: saw.answered[0]!,
      },
      answeredThrough: { id: saw.id, ts: saw.ts },
      answered: saw.answered,
      arrivals: saw.arrivals,
      ...(trace ? { trace } : {}),
    });
  }

  /** Gives the claim back after a failure, with what went out, for QStash's retry to finish. */
  async release(): Promise<void> {
    await this.#rt.store.replies.releaseClaim(this.#job.key, this.#job.trigger.id, this.#token, this.#draft);
  }

  async #save(): Promise<void> {
    await this.#rt.store.replies.saveDraft(this.#job.key, this.#job.trigger.id, this.#draft);
    this.#streamUnsaved = false;
  }
}
