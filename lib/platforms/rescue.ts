/**
 * @module
 * What a platform offers the rescue of a question nobody picked up (lib/jobs/rescue.ts), beside the contract
 * (./adapter.ts): where an answer under the question goes (a Slack thread under it, a Discord reply to it) and the
 * conversation it joins there, and what people wrote after the question, read from the platform when the
 * conversation that held it has ended or never began. A platform without it gets no rescues.
 */
import type { BotIdentity, ConversationKey, ReplyTarget, StoredMessage } from "../message.ts";

/** The question, as its job names it. */
export interface RescuedQuestion<Target extends ReplyTarget = ReplyTarget> {
  key: ConversationKey;
  id: string;
  ts: number;
  /** Where an answer to it would have gone (its own message's reply target). */
  target: Target;
  bot: BotIdentity;
}

/** What the platform says of the question now: gone (deleted), or it with what followed. */
export type QuestionHistory = { gone: true } | { gone: false; question: StoredMessage; later: StoredMessage[]; threadReplies: StoredMessage[] };

/** `Context` is a job's ReplyContext (./adapter.ts, which names this capability: it is not imported from there). */
export interface RescueCapability<Target extends ReplyTarget, Context> {
  /** The place of an answer under the question, and where it goes. */
  under(question: RescuedQuestion<Target>): { key: ConversationKey; target: Target };
  /** The question and what was written after it up to `until` (ms), its thread's replies apart; oldest first. */
  history(ctx: Context, question: RescuedQuestion<Target>, until: number): Promise<QuestionHistory>;
}

/** The adapter's optional `rescue` (./adapter.ts extends this). */
export interface WithRescue<Target extends ReplyTarget, Context> {
  /** Answers under a question nobody picked up. */
  readonly rescue?: RescueCapability<Target, Context>;
}
