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

/**
 * A control on the question: its `id` is all a press sends back (never a person's words), the label what it
 * shows, `style` how it stands out (Slack primary/danger, Discord success/danger).
 */
export interface Control {
  id: ControlId;
  label: string;
  style: "approve" | "cancel";
}

export type ControlId = "approve" | "cancel";

/** The question's two controls, on every platform that shows controls. */
export const APPROVAL_CONTROLS: readonly Control[] = [
  { id: "approve", label: "Approve", style: "approve" },
  { id: "cancel", label: "Cancel", style: "cancel" },
];

/**
 * A press of one of the bot's controls, as the platform's signed interaction said: who pressed, on which of the
 * bot's messages (`messageRef`, as `send` returned its id), in which channel, which control (`controlId`, as the
 * platform sent it back: unchecked). `reply` is the platform's handle for a private answer to this press.
 */
export interface ControlPress {
  place: ConversationKey;
  person: string;
  messageRef: string;
  controlId: string;
  reply?: string;
  /** The presser's name as the platform's payload gives it (a Stop's "stopped by …"). */
  personName?: string;
  /** The payload says the presser may manage the place (Discord's member permissions: a Stop's `mayStopAny`). */
  mayManage?: boolean;
  /**
   * Someone the pressed message names, with their name, where the platform's payload says (Telegram: the author of
   * the message the question replies to): a note names the asker by it where a mention cannot show a name.
   */
  named?: { id: string; name: string };
  /**
   * The pressed message's text as the press delivered it, where the press's answer rewrites that message (Google
   * Chat answers a click with the message's update): the answer keeps its words and puts the outcome under them.
   */
  shownText?: string;
}

/** What a platform's parse returns for it (lib/platforms/adapter.ts `Parsed`). */
export type ApprovalParsed = { kind: "approval"; answer: ApprovalAnswer } | { kind: "control"; press: ControlPress };

/**
 * Where the question can carry controls (buttons): they are put on it once its approval is open (an edit, so that a
 * streamed question gets them too), replaced by the outcome once it is decided, and each press is answered to its
 * presser alone. Each is safe to repeat.
 */
interface ControlsCapability<Target extends ReplyTarget, Ctx> {
  /** Shows `question` (Markdown, as posted) on message `ref` with `controls` under it. */
  offer(ctx: Ctx, target: Target, ref: string, question: string, controls: readonly Control[]): Promise<void>;
  /** Replaces the controls on message `ref` with `outcome` (Markdown), under the question as it was. */
  settle(ctx: Ctx, target: Target, ref: string, question: string, outcome: string): Promise<void>;
  /**
   * The route's answer to `press` (within the platform's 3 s): `note` (Markdown) shown to the presser alone, or
   * nothing to say.
   */
  answer(ctx: Ctx, press: ControlPress, note: string | null): Promise<Response>;
  /**
   * How a note names a person so that the platform shows who (a mention); `name`, where it is known (the job's
   * asker, a press's `named`), for a platform whose mention of an id shows no name (Telegram).
   */
  mention(person: string, name?: string): string;
}

/** A message that would answer the place's pending question, if one is pending (`Parsed` of kind `message`). */
export type ApprovalReply = { approvalReply?: ApprovalAnswer["verdict"] };

/**
 * How a person answers: a ✅ or ❌ on the question (or its controls, `controls`), a reply of YES or NO, or only the
 * controls (`press`: Telegram, where a bot reads no ✅ or ❌ reaction).
 */
export type ApprovalWay = "reaction" | "reply" | "controls" | "press";

interface ApprovalCapability<Target extends ReplyTarget, Config, Ctx> {
  /** Absent: a reaction (or the controls, where it has them). */
  readonly way?: Exclude<ApprovalWay, "controls">;
  /**
   * Whether `question` (Markdown) goes out whole, as one message, to `target`: a question the platform would cut or
   * split is never asked (lib/jobs/tool-loop.ts), so that the person sees every argument that would run.
   */
  showsWhole(question: string, target: Target, config: Config): boolean;
  /** Where a message that follows the answer to `target` goes, posted as a new message in `place`. */
  followUp(target: Target, place: ConversationKey): Target;
  /** Absent: the question is plain text (SMS, WhatsApp). */
  readonly controls?: ControlsCapability<Target, Ctx>;
}

/** The adapter's optional `approvals` (lib/platforms/adapter.ts extends this). */
export interface WithApprovals<Target extends ReplyTarget, Config, Ctx> {
  readonly approvals?: ApprovalCapability<Target, Config, Ctx>;
}
