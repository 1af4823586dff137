/**
 * @module
 * The decider's vocabulary: the closed set of reasons, the decision, and the slice of a message it reads.
 */
import type { InboundMessage } from "../message.ts";

export type DecisionReason =
  | "self"
  | "other_bot"
  | "direct_mention"
  | "reply_to_bot"
  | "dm"
  | "command"
  | "name_exact"
  | "name_alias"
  | "recent_followup"
  | "continuation"
  | "addressed_other"
  | "judge"
  | "no_trigger"
  | "opted_out"
  | "not_you"
  | "told_not_you"
  /** Unprompted, where the place allows it (./initiative.ts): [SKIP] allowed. */
  | "initiative";

export interface Decision {
  respond: "yes" | "no" | "judge";
  reason: DecisionReason;
  /** Model probability when tier 2 ran. */
  score?: number;
}

export type DecidableMessage = Pick<
  InboundMessage,
  "author" | "text" | "ts" | "addressing" | "mentions" | "replyToAuthorId" | "feedback"
>;

export interface DecideOptions {
  followupWindowSeconds: number;
  useJudge: boolean;
}
