/**
 * @module
 * A Gateway MESSAGE_REACTION_ADD of 👎 (in any skin tone) on one of the bot's messages → an InboundMessage that
 * carries no words, only the "not you" feedback: recorded in the channel's conversation, never answered
 * (lib/decide/not-you.ts). A ✅ or ❌ on one → a person's answer to the bot's question, if it asked one there
 * (lib/approvals/capability.ts, docs/tools.md). Every other reaction needs no work. Pure.
 */
import * as z from "../../../zod.ts";
import type { ConversationKey, InboundMessage } from "../../../message.ts";
import type { ApprovalParsed } from "../../../approvals/capability.ts";
import { describeIssues } from "../../../zod-issues.ts";
import { displayName, snowflake } from "../schema.ts";
import type { ChannelTarget } from "../target.ts";

/** 👎, bare or with one of the five Fitzpatrick skin-tone modifiers (U+1F3FB–U+1F3FF) that Discord keeps in the name. */
const THUMBS_DOWN = /^👎[\u{1F3FB}-\u{1F3FF}]?$/u;
const DM_TENANT_PREFIX = "dm:";
/** ✅ ✔️ ☑️ approve (with or without the emoji presentation selector); ❌ ❎ deny. */
const APPROVE = /^(?:\u2705|\u2714|\u2611)\uFE0F?$/u;
const DENY = /^(?:\u274C|\u274E)\uFE0F?$/u;

export const reactionSchema = z.looseObject({
  user_id: snowflake,
  channel_id: snowflake,
  message_id: snowflake,
  guild_id: z.optional(snowflake),
  /** The author of the message reacted to (Discord sends it on MESSAGE_REACTION_ADD). */
  message_author_id: z.optional(snowflake),
  member: z.optional(
    z.looseObject({
      nick: z.nullish(z.string()),
      user: z.optional(z.looseObject({ id: snowflake, username: z.string(), global_name: z.nullish(z.string()) })),
    }),
  ),
  emoji: z.looseObject({ id: z.nullable(snowflake), name: z.nullable(z.string()) }),
});

export type GatewayReactionParsed =
  | { kind: "message"; message: InboundMessage }
  | ApprovalParsed
  | { kind: "ignored"; reason: string }
  | { kind: "invalid"; issues: string };

/** `now`: the Gateway's reaction event carries no time of its own. */
export function parseGatewayReaction(data: unknown, botUserId: string, now: number): GatewayReactionParsed {
  const parsed = reactionSchema.safeParse(data);
  if (!parsed.success) return { kind: "invalid", issues: describeIssues(parsed.error) };
  const reaction = parsed.data;
  if (reaction.message_author_id !== botUserId) return { kind: "ignored", reason: "reaction_not_on_bot" };
  const tenant = reaction.guild_id ?? `${DM_TENANT_PREFIX}${reaction.user_id}`;
  const emoji = reaction.emoji.id === null ? (reaction.emoji.name ?? "") : "";
  if (APPROVE.test(emoji) || DENY.test(emoji)) {
    const place = { platform: "discord" as const, tenant, channel: reaction.channel_id };
    return {
      kind: "approval",
      answer: {
        place,
        messageId: reaction.message_id,
        userId: reaction.user_id,
        verdict: APPROVE.test(emoji) ? "approve" : "deny",
      },
    };
  }
  if (reaction.emoji.id !== null || !THUMBS_DOWN.test(reaction.emoji.name ?? ""))
    return { kind: "ignored", reason: "reaction_not_feedback" };
  const user = reaction.member?.user;
  const person = { id: reaction.user_id, name: user ? displayName(user, reaction.member) : reaction.user_id };
  const place = { platform: "discord" as const, tenant, channel: reaction.channel_id };
  return { kind: "message", message: discordNotYou(place, reaction.message_id, person, now) };
}

/**
 * `person`'s "not you" on the bot's message `messageId` in `place` (a channel), at `at` (ms): a 👎 reaction's, or a 👎
 * pressed under an unprompted answer (../feedback.ts).
 */
export function discordNotYou(
  place: ConversationKey,
  messageId: string,
  person: { id: string; name: string },
  at: number,
): InboundMessage {
  return {
    key: place,
    // One per person and message: the same 👎 (reaction, or press) again is the same feedback.
    id: `${messageId}:not_you:${person.id}`,
    author: { ...person, isBot: false },
    text: "",
    ts: at,
    addressing: "none",
    mentions: [],
    replyTarget: { platform: "discord", kind: "channel", channelId: place.channel } satisfies ChannelTarget,
    noReply: true,
    feedback: "not_you",
  };
}
