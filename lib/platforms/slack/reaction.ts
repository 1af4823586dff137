/**
 * @module
 * A 👎 on one of the bot's messages (`reaction_added`, `:-1:` or `:thumbsdown:` in any skin tone) → an InboundMessage
 * that carries no words, only the "not you" feedback: recorded in the channel's conversation, never answered
 * (lib/decide/not-you.ts). A ✅ or ❌ on one → a person's answer to the bot's question, if it asked one there
 * (lib/approvals/capability.ts, docs/tools.md). Every other reaction needs no work. The event does not say whether the
 * message was in a thread, so the feedback lands in the channel's own conversation.
 */
import type { ConversationKey, InboundMessage } from "../../message.ts";
import type { ApprovalParsed } from "../../approvals/capability.ts";
import { describeIssues } from "../../zod-issues.ts";
import { reactionEventSchema } from "./schema.ts";
import type { SlackTarget } from "./target.ts";
import { slackVisibility } from "./visibility.ts";

const THUMBS_DOWN = /^(?:-1|thumbsdown)(?:::skin-tone-\d)?$/;
/** ✅ ✔️ ☑️ approve; ❌ ❎ deny. */
const VERDICTS: Readonly<Record<string, "approve" | "deny">> = {
  white_check_mark: "approve",
  heavy_check_mark: "approve",
  ballot_box_with_check: "approve",
  x: "deny",
  negative_squared_cross_mark: "deny",
};

export type SlackReactionParsed =
  | { kind: "message"; message: InboundMessage }
  | ApprovalParsed
  | { kind: "ignored"; reason: string }
  | { kind: "invalid"; issues: string };

export function parseSlackReaction(event: unknown, tenant: string, botUserId: string): SlackReactionParsed {
  const parsed = reactionEventSchema.safeParse(event);
  if (!parsed.success) return { kind: "invalid", issues: describeIssues(parsed.error, "event.") };
  const reaction = parsed.data;
  const { channel, ts } = reaction.item;
  if (reaction.item.type !== "message" || channel === undefined || ts === undefined)
    return { kind: "ignored", reason: "reaction_not_on_message" };
  if (reaction.item_user !== botUserId) return { kind: "ignored", reason: "reaction_not_on_bot" };
  const verdict = VERDICTS[reaction.reaction];
  if (verdict)
    return {
      kind: "approval",
      answer: { place: { platform: "slack", tenant, channel }, messageId: ts, userId: reaction.user, verdict },
    };
  if (!THUMBS_DOWN.test(reaction.reaction)) return { kind: "ignored", reason: "reaction_not_feedback" };
  const at = Math.round(parseFloat(reaction.event_ts) * 1000);
  return { kind: "message", message: slackNotYou({ platform: "slack", tenant, channel }, ts, reaction.user, at) };
}

/**
 * `user`'s "not you" on the bot's message `ts` in `place` (a channel), at `at` (ms): a 👎 reaction's, or a 👎 pressed
 * under an unprompted answer (./feedback.ts).
 */
export function slackNotYou(place: ConversationKey, ts: string, user: string, at: number): InboundMessage {
  return {
    key: place,
    // One per person and message: a second 👎 (event, or press) for the same pair is the same feedback.
    id: `${place.channel}:${ts}:not_you:${user}`,
    author: { id: user, name: user, isBot: false },
    text: "",
    ts: at,
    addressing: "none",
    mentions: [],
    replyTarget: { platform: "slack", channel: place.channel } satisfies SlackTarget,
    visibility: slackVisibility(place.channel, undefined),
    noReply: true,
    feedback: "not_you",
  };
}
