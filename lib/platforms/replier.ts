/**
 * @module
 * The platforms as the job flows see them (`Replier`): each job's answer goes to the adapter of its reply target's
 * platform, with the target checked against that adapter's schema and the job's tenant in context.
 */
import type { KeptMessages } from "../conversation/kept.ts";
import { GiveUp } from "../errors.ts";
import { jobLogFields } from "../log-ids.ts";
import type { FileRef } from "../files/file-ref.ts";
import type { ConversationKey, ParentMessage, PartProgress, ReplyTarget, StreamState, Visibility } from "../message.ts";
/** Below the flows a job is its payload: whatever its kind, the platform side of it is the same. */
import type { JobPayload as Job } from "../queue/job.ts";
import type { BudgetWatch } from "../limits/api-budget.ts";
import type { PlatformAdapter } from "./adapter.ts";
import { snapshotShows } from "./answer-format.ts";
import type { AnswerFor, AnswerStream, UnsureOpen, WorkingSign } from "./answer-stream.ts";
import { APPROVAL_CONTROLS, type ApprovalWay } from "../approvals/capability.ts";
import { type PlatformServices, replyContext } from "./context.ts";
import type { FeedbackControl } from "../feedback/capability.ts";
import type { FetchedFile, KeepEnd } from "./file-fetch.ts";
import type { HistoryPage, HistoryQuery, HistoryWindow, PlaceMessage, PlaceRead } from "./history.ts";
import { optionalRead, type ReadLog } from "./optional-read.ts";

/** The platform side of a job: the adapter of the job's platform, for its tenant. */
export interface Replier {
  /**
   * Posts an answer on the platform, split into the platform's parts, as `progress` says (lib/jobs/post.ts keeps it
   * durable); returns the ids of the messages this call posted or found.
   */
  send(job: Job, text: string, progress: PartProgress): Promise<string[]>;
  /** Who can read the job's place, asked of the platform when the message did not say (lib/jobs/visibility.ts). */
  placeVisibility(job: Job): Promise<Visibility>;
  /**
   * The message the job's place or `replyToId` is about, asked of the platform (lib/jobs/parent.ts); undefined when
   * the platform has nothing to look up for it (no reply, and a place that cannot be about a message), or when the
   * read failed (logged `parent_unavailable`, ./optional-read.ts).
   */
  fetchParent(job: Job, replyToId: string | undefined): Promise<ParentMessage | null | undefined>;
  /**
   * What was said in the job's place before its trigger (lib/jobs/backfill.ts), or after it (a rescue); undefined
   * where nothing can be read, or when the read failed (logged `history_unavailable`, ./optional-read.ts).
   */
  readHistory(job: Job, query: JobHistoryQuery): Promise<HistoryPage | undefined>;
  /**
   * Where an answer under the job's trigger goes (a rescue's, lib/rescue/capability.ts), and the conversation it joins
   * there; null where the platform has no rescue, or cannot read what followed the trigger.
   */
  rescueUnder(job: Job): { key: ConversationKey; target: ReplyTarget } | null;
  /** A link to one of the job's place's messages (HistoryCapability.messageLink); undefined where there is none. */
  messageLink(job: Job, messageId: string): string | undefined;
  /**
   * Whose daily token budget the job spends: its tenant's, or its installation's for a DM that is a tenant of its own.
   */
  budgetTenant(job: Job): Pick<Job["key"], "platform" | "tenant">;
  /** How the job's platform shows an answer as it is written (reading `watch` with its budget calls), or null. */
  streaming(job: Job, watch?: BudgetWatch): JobStreaming | null;
  /** Up to `maxBytes` of a file pasted in the job's place (./file-fetch.ts); null when the platform cannot fetch it. */
  fetchFile(job: Job, ref: FileRef, maxBytes: number, keep: KeepEnd): Promise<FetchedFile | null>;
  /** Shows that the bot is working on the job's answer (a no-op where the platform has no sign); see AnswerFor. */
  working(job: Job, sign?: Pick<AnswerFor, "signUp" | "signMark">): Promise<WorkingSign>;
  /**
   * Where an approval's result or cancellation goes (a new message); null where no person can approve (PlatformAdapter
   * `approvals`).
   */
  approvalTarget(job: Job): ReplyTarget | null;
  /** How a person answers an approval's question there; null where no person can approve. */
  approvalWay(job: Job): ApprovalWay | null;
  /** Whether an approval's `question` goes out whole as one message (false where no person can approve). */
  approvalShown(job: Job, question: string): boolean;
  /** Puts the approval's controls on its question, message `ref` (a no-op where the platform shows none). */
  offerControls(job: Job, ref: string, question: string): Promise<void>;
  /** Replaces them with the outcome, `outcome(asker)` with the asker as the platform mentions them (or a no-op). */
  settleControls(job: Job, ref: string, question: string, outcome: (asker: string) => string): Promise<void>;
  /** Names the job's conversation from `question` where the platform titles conversations (else a no-op). */
  titleConversation(job: Job, question: string): Promise<void>;
  /** Puts 👍 / 👎 under message `ref`, the last part of `answer`; false where the platform shows no feedback. */
  offerFeedback(job: Job, ref: string, answer: string, controls: readonly FeedbackControl[]): Promise<boolean>;
}

/** A history read of the job's place, as its bot. */
type JobHistoryQuery = Pick<PlaceRead, "triggerListed" | "limit"> & HistoryWindow;

/** A platform's StreamingCapability for one job's place. */
export interface JobStreaming {
  readonly maxChars: number;
  readonly intervalMs: number;
  /** Whether a snapshot of the answer shows anything yet on the platform (a lone `**` or `## ` does not). */
  shows(text: string): boolean;
  /** `unsure`: an earlier attempt began to open it then (ms), with these texts, and never heard back. */
  open(text: string, unsure?: UnsureOpen): Promise<AnswerStream | null>;
  resume(state: StreamState): AnswerStream;
}

/** What a person lacks when their permissions could not be read: everything, so nothing is read for them. */
const UNKNOWN = "PERMISSIONS_UNREAD";

const answerFor = (job: Job) => ({ triggerId: job.trigger.id, authorId: job.trigger.authorId });

export function platformReplier(
  rt: PlatformServices & { store: { kept: KeptMessages } },
  adapters: readonly PlatformAdapter[],
): Replier {
  const byPlatform = new Map(adapters.map((adapter) => [adapter.platform, adapter]));
  const readLog = async (job: Job): Promise<ReadLog> => ({ log: rt.log, fields: { ...(await jobLogFields(rt, job)) } });
  const open = (job: Job) => {
    const adapter = byPlatform.get(job.replyTarget.platform);
    if (!adapter) throw new GiveUp(`no adapter for platform ${job.replyTarget.platform}`, "unknown_platform");
    const ctx = replyContext(rt, adapter, job.key.tenant);
    return { adapter, ctx, target: adapter.replyTargetSchema.parse(job.replyTarget) };
  };
  // One answer per job object: a catch-up reads several pages for the same asker.
  const askerChecks = new WeakMap<Job, Promise<string | null>>();
  const askerLacks = (job: Job): Promise<string | null> => {
    const { adapter, ctx, target } = open(job);
    const ask = adapter.askerLacks;
    if (!ask) return Promise.resolve(null);
    const known = askerChecks.get(job);
    if (known) return known;
    const read = { place: job.key, asker: job.trigger.authorId, target };
    // An optional read: when it fails (or Discord refuses it) nothing is read for them, and the answer still goes out.
    const check = (async () => {
      try {
        const lacks = await optionalRead("asker_permissions", await readLog(job), () => ask(ctx, read));
        return lacks === undefined ? UNKNOWN : lacks;
      } catch (err) {
        if (err instanceof GiveUp) return UNKNOWN;
        throw err;
      }
    })();
    askerChecks.set(job, check);
    return check;
  };
  return {
    send(job, text, progress) {
      const { adapter, ctx, target } = open(job);
      return adapter.send(ctx, target, text, progress);
    },
    placeVisibility(job) {
      const { adapter, ctx } = open(job);
      return adapter.placeVisibility(ctx, job.key);
    },
    async fetchParent(job, replyToId) {
      const { adapter, ctx } = open(job);
      const { fetchParent } = adapter;
      if (!fetchParent || (!replyToId && !adapter.placeParents)) return undefined;
      const about = { place: job.key, bot: job.bot, ...(replyToId ? { replyToId } : {}) };
      return optionalRead("parent", await readLog(job), () => fetchParent(ctx, about));
    },
    async readHistory(job, query) {
      const { adapter, ctx } = open(job);
      if (!adapter.readHistory) return undefined;
      // Every history read (backfill, read_channel, a catch-up) is made for the asker: none of what they may not read.
      const lacks = job.historyHidden ?? (await askerLacks(job));
      if (lacks) return { refused: `${lacks} for the person asking` };
      const { kept } = rt.store;
      // A read on from a message keeps its first `limit`, one back to a window its last.
      const between = async (q: HistoryQuery) =>
        "after" in q
          ? (
              await kept.between(q.place, {
                since: q.after.ts,
                before: Number.POSITIVE_INFINITY,
                limit: Number.MAX_SAFE_INTEGER,
              })
            ).slice(0, q.limit)
          : await kept.between(q.place, { since: q.since, before: q.before.ts, limit: q.limit });
      const keptOf = async (q: HistoryQuery): Promise<PlaceMessage[]> =>
        (await between(q)).map((m) => ({
          id: m.id,
          author: { id: m.authorId, name: m.authorName, isBot: false },
          text: m.text,
          ts: m.ts,
          ...(m.replyToId ? { replyToId: m.replyToId } : {}),
        }));
      const { readHistory } = adapter;
      return optionalRead("history", await readLog(job), () =>
        readHistory({ ...ctx, kept: keptOf }, { ...query, place: job.key, bot: job.bot }),
      );
    },
    rescueUnder(job) {
      const adapter = byPlatform.get(job.key.platform);
      if (!adapter?.rescue || !adapter.readHistory) return null;
      return adapter.rescue.under({
        key: job.key,
        id: job.trigger.id,
        target: adapter.replyTargetSchema.parse(job.replyTarget),
      });
    },
    messageLink(job, messageId) {
      return byPlatform.get(job.key.platform)?.messageLink?.(job.key, messageId);
    },
    budgetTenant(job) {
      const adapter = byPlatform.get(job.key.platform);
      return adapter?.budgetTenant?.(job.key, job.bot) ?? { platform: job.key.platform, tenant: job.key.tenant };
    },
    streaming(job, watch) {
      const { adapter, target } = open(job);
      const ctx = replyContext(rt, adapter, job.key.tenant, watch);
      const streaming = adapter.streaming;
      if (!streaming) return null;
      return {
        maxChars: streaming.maxChars,
        intervalMs: streaming.intervalMs,
        shows: (text) => snapshotShows(adapter.format, text, target),
        open: (text, unsure) => streaming.open(ctx, target, text, { ...answerFor(job), ...(unsure ? { unsure } : {}) }),
        resume: (state) => streaming.resume(ctx, target, state, answerFor(job)),
      };
    },
    async fetchFile(job, ref, maxBytes, keep) {
      const { adapter, ctx } = open(job);
      return adapter.files?.fetchFile(ctx, ref, maxBytes, keep) ?? null;
    },
    approvalTarget(job) {
      const { adapter, target } = open(job);
      return adapter.approvals ? adapter.approvals.followUp(target, job.key) : null;
    },
    approvalWay(job) {
      const { approvals } = open(job).adapter;
      return approvals ? (approvals.way ?? (approvals.controls ? "controls" : "reaction")) : null;
    },
    approvalShown(job, question) {
      const { adapter, ctx, target } = open(job);
      return adapter.approvals?.showsWhole(question, target, ctx.config) ?? false;
    },
    async offerControls(job, ref, question) {
      const { adapter, ctx, target } = open(job);
      await adapter.approvals?.controls?.offer(ctx, target, ref, question, APPROVAL_CONTROLS);
    },
    async settleControls(job, ref, question, outcome) {
      const { adapter, ctx, target } = open(job);
      const controls = adapter.approvals?.controls;
      const asker = controls?.mention(job.trigger.authorId, job.trigger.authorName) ?? "";
      await controls?.settle(ctx, target, ref, question, outcome(asker));
    },
    async offerFeedback(job, ref, answer, controls) {
      const { adapter, ctx, target } = open(job);
      if (!adapter.feedback) return false;
      await adapter.feedback.offer(ctx, target, ref, answer, controls);
      return true;
    },
    async titleConversation(job, question) {
      const { adapter, ctx, target } = open(job);
      await adapter.titleConversation?.(ctx, target, question);
    },
    async working(job, sign = {}) {
      const { adapter, ctx, target } = open(job);
      return adapter.working?.(ctx, target, { ...answerFor(job), ...sign }) ?? { stop: async () => undefined };
    },
  };
}
