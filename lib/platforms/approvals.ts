/**
 * @module
 * A platform where a person can answer the bot's question with a reaction (docs/tools.md, "Actions that need
 * approval"): its parser reads a ✅ or ❌ on one of the bot's messages as a `Parsed` of kind `approval`, and the core
 * may offer it confirm tools. The approved call's result, or the cancellation, is a message of its own: never an
 * edit of the question or of an earlier answer (a Discord interaction's answer is an edit of its deferred response).
 */
import type { ConversationKey, ReplyTarget } from "../message.ts";

/** A ✅ or ❌ on one of the bot's messages; the place is the channel (a reaction never names the thread). */
export interface ApprovalAnswer {
  place: ConversationKey;
  /** The message reacted to, as the platform's send returned its id. */
  messageId: string;
  userId: string;
  verdict: "approve" | "deny";
}

/** What a platform's parse returns for it (./adapter.ts `Parsed`). */
export type ApprovalParsed = { kind: "approval"; answer: ApprovalAnswer };

export interface ApprovalCapability<Target extends ReplyTarget> {
  /** Where a message that follows the answer to `target` goes, posted as a new message in `place`. */
  followUp(target: Target, place: ConversationKey): Target;
}

/** The adapter's optional `approvals` (./adapter.ts extends this). */
export interface WithApprovals<Target extends ReplyTarget> {
  readonly approvals?: ApprovalCapability<Target>;
}
