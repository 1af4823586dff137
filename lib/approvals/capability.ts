/**
 * @module
 * A platform where a person can answer the bot's question (docs/tools.md, "Actions that need approval"), and where the
 * core may offer confirm tools: with a reaction (its parser reads a ✅ or ❌ on one of the bot's messages as a `Parsed`
 * of kind `approval`), or with words (SMS: its parser marks a message that is just YES or NO with `approvalReply`,
 * which answers the place's latest pending question if it directly follows it, and is an ordinary message if not).
 * The approved call's result, or the cancellation, is a message of its own: never an edit of the question or of an
 * earlier answer (a Discord interaction's answer is an edit of its deferred response).
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

/** What a platform's parse returns for it (lib/platforms/adapter.ts `Parsed`). */
export type ApprovalParsed = { kind: "approval"; answer: ApprovalAnswer };

/** A message that would answer the place's pending question, if one is pending (`Parsed` of kind `message`). */
export type ApprovalReply = { approvalReply?: ApprovalAnswer["verdict"] };

/** How a person answers: a ✅ or ❌ on the question, or a reply of YES or NO in the place. */
export type ApprovalWay = "reaction" | "reply";

interface ApprovalCapability<Target extends ReplyTarget, Config> {
  /** Absent: a reaction. */
  readonly way?: ApprovalWay;
  /**
   * Whether `question` (Markdown) goes out whole, as one message, to `target`: a question the platform would cut or
   * split is never asked (lib/jobs/tool-loop.ts), so that the person sees every argument that would run.
   */
  showsWhole(question: string, target: Target, config: Config): boolean;
  /** Where a message that follows the answer to `target` goes, posted as a new message in `place`. */
  followUp(target: Target, place: ConversationKey): Target;
}

/** The adapter's optional `approvals` (lib/platforms/adapter.ts extends this). */
export interface WithApprovals<Target extends ReplyTarget, Config> {
  readonly approvals?: ApprovalCapability<Target, Config>;
}
