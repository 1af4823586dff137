/**
 * @module
 * A 👎 newly set on a message (`message_reaction`; Telegram sends it only to a bot that is an admin of the chat and
 * asked for it in `allowed_updates`, and never for reactions set by bots) → an InboundMessage that carries no
 * words, only the "not you" feedback: recorded, never answered (lib/decide/not-you.ts). The update does not say
 * whose message was reacted to, so the feedback names it (`replyToId`) and counts only when it is one of the bot's
 * answers in the conversation; nor does it say the forum topic, so it lands in the chat's own conversation.
 */
import type { ConversationKey, InboundMessage } from "../../message.ts";
import { describeIssues } from "../../zod-issues.ts";
import { chatVisibility, messageTime, placeOf } from "./place.ts";
import { reactionUpdatedSchema, type TelegramChat } from "./schema.ts";
import type { TelegramTarget } from "./target.ts";
import { displayName } from "./people.ts";

const THUMBS_DOWN = "👎";

export type ReactionParsed =
  | { kind: "message"; message: InboundMessage }
  | { kind: "ignored"; reason: string }
  | { kind: "invalid"; issues: string };

export function parseReaction(update: unknown, botId: string, now: number): ReactionParsed {
  const parsed = reactionUpdatedSchema.safeParse(update);
  if (!parsed.success) return { kind: "invalid", issues: describeIssues(parsed.error, "message_reaction.") };
  const reaction = parsed.data;
  const { chat, user } = reaction;
  if (chat.type === "channel") return { kind: "ignored", reason: "reaction_in_channel" };
  // An anonymous reaction (on behalf of a chat) has no person to stop following up with.
  if (!user) return { kind: "ignored", reason: "reaction_anonymous" };
  const had = reaction.old_reaction.some((r) => r.type === "emoji" && r.emoji === THUMBS_DOWN);
  const has = reaction.new_reaction.some((r) => r.type === "emoji" && r.emoji === THUMBS_DOWN);
  if (!has || had) return { kind: "ignored", reason: "reaction_not_feedback" };
  const author = { id: String(user.id), name: displayName(user), isBot: user.is_bot };
  const about = { messageId: String(reaction.message_id), ts: messageTime(reaction.date, now) };
  const { type } = chat; // not a channel (above)
  return { kind: "message", message: telegramNotYou(placeOf(botId, chat), { ...chat, type }, about, author) };
}

/**
 * The "not you" feedback of `author` on the bot's message `about.messageId` in `place`: a 👎 reaction's, or a 👎
 * pressed under an unprompted answer (./feedback.ts), which count once between them.
 */
export function telegramNotYou(
  place: ConversationKey,
  chat: Pick<TelegramChat, "id" | "username"> & { type: TelegramTarget["chatType"] },
  about: { messageId: string; ts: number },
  author: InboundMessage["author"],
): InboundMessage {
  return {
    key: place,
    // One per person and reacted message: the same 👎 delivered again is the same feedback.
    id: `${about.messageId}:not_you:${author.id}`,
    author,
    text: "",
    ts: about.ts,
    addressing: "none",
    mentions: [],
    replyToId: about.messageId,
    replyTarget: { platform: "telegram", chatId: chat.id, chatType: chat.type } satisfies TelegramTarget,
    visibility: chatVisibility(chat),
    noReply: true,
    feedback: "not_you",
  };
}
