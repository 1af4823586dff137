/**
 * @module
 * What a platform offers the rescue of a question nobody picked up (lib/rescue/job.ts), beside the contract
 * (lib/platforms/adapter.ts): where an answer under the question goes (a Slack thread under it, a Discord reply to it)
 * and the conversation it joins there. What people wrote after the question, when the conversation that held it has
 * ended or never began, is read with the history capability (lib/platforms/history.ts, read on `after` the question). A
 * platform without both gets no rescues.
 */
import type { ConversationKey, ReplyTarget } from "../message.ts";

/** The question, as its job names it. */
interface RescuedQuestion<Target extends ReplyTarget = ReplyTarget> {
  key: ConversationKey;
  id: string;
  /** Where an answer to it would have gone (its own message's reply target). */
  target: Target;
}

export interface RescueCapability<Target extends ReplyTarget> {
  /** The place of an answer under the question, and where it goes. */
  under(question: RescuedQuestion<Target>): { key: ConversationKey; target: Target };
}

/** The adapter's optional `rescue` (lib/platforms/adapter.ts extends this). */
export interface WithRescue<Target extends ReplyTarget> {
  /** Answers under a question nobody picked up. */
  readonly rescue?: RescueCapability<Target>;
}
