/**
 * @module
 * A Telegram update → one platform-neutral InboundMessage, the chat's removal, or the reason it needs no work.
 * Pure: no API call. The update's kind is told first and only the kinds Parley uses are checked further (./schema.ts):
 * `message` (text, or a caption), `message_reaction` (a 👎: ./reaction.ts), `my_chat_member` (./membership.ts),
 * `callback_query` (a press of the bot's buttons: ./callback.ts). Every other kind (edits, channel posts...) is
 * acknowledged and ignored: Telegram retries a refusal.
 */
import type { InboundMessage } from "../../message.ts";
import { describeIssues } from "../../zod-issues.ts";
import { readAddressing, type Bot } from "./addressing.ts";
import { migratedChat, parseMyChatMember, type MembershipParsed } from "./membership.ts";
import { authorOf } from "./people.ts";
import { chatVisibility, messageTime, placeOf, topicOf } from "./place.ts";
import { parseReaction } from "./reaction.ts";
import { messageSchema, updateShapeSchema } from "./schema.ts";
import type { TelegramTarget } from "./target.ts";
import { telegramFileRefs } from "./files.ts";
import type { ControlPress } from "../../approvals/capability.ts";
import { parseCallbackQuery } from "./callback.ts";

/** The update kinds Parley asks for (`allowed_updates`, `npm run telegram:set-webhook`). */
export const ALLOWED_UPDATES = ["message", "message_reaction", "my_chat_member", "callback_query"] as const;

export type TelegramParsed =
  | { kind: "message"; message: InboundMessage }
  | { kind: "control"; press: ControlPress }
  | MembershipParsed
  | { kind: "ignored"; reason: string }
  | { kind: "invalid"; issues: string };

export function parseTelegramUpdate(body: unknown, bot: Bot, now: number): TelegramParsed {
  const shape = updateShapeSchema.safeParse(body);
  if (!shape.success) return { kind: "invalid", issues: describeIssues(shape.error) };
  const update = shape.data;
  if (update.message !== undefined) return parseMessage(update.message, bot, now);
  if (update.message_reaction !== undefined) return parseReaction(update.message_reaction, bot.id, now);
  if (update.my_chat_member !== undefined) return parseMyChatMember(update.my_chat_member, bot.id);
  if (update.callback_query !== undefined) return parseCallbackQuery(update.callback_query, bot.id);
  const kind = Object.keys(update).find((key) => key !== "update_id");
  return { kind: "ignored", reason: kind ? `update:${kind}` : "update:empty" };
}

function parseMessage(raw: unknown, bot: Bot, now: number): TelegramParsed {
  const parsed = messageSchema.safeParse(raw);
  if (!parsed.success) return { kind: "invalid", issues: describeIssues(parsed.error, "message.") };
  const message = parsed.data;
  const chat = message.chat;
  if (chat.type === "channel") return { kind: "ignored", reason: "channel_post" };
  if (message.migrate_to_chat_id !== undefined) return migratedChat(bot.id, chat.id);
  if (message.from && String(message.from.id) === bot.id) return { kind: "ignored", reason: "own_message" };
  if (message.via_bot && String(message.via_bot.id) === bot.id) return { kind: "ignored", reason: "via_bot" };
  const author = authorOf(message);
  if (!author) return { kind: "invalid", issues: "message.from: missing" };
  const text = message.text ?? message.caption ?? "";
  const files = telegramFileRefs(message.photo, message.document);
  // A picture without words is a message too: the answer reads the picture.
  if (!text.trim() && files.length === 0) return { kind: "ignored", reason: "no_text" };
  const addressed = readAddressing(
    message,
    text,
    message.text !== undefined ? (message.entities ?? []) : (message.caption_entities ?? []),
    bot,
  );
  const topic = topicOf(message);
  const inGroup = chat.type !== "private";
  return {
    kind: "message",
    message: {
      key: placeOf(bot.id, chat, topic),
      // Unique within the chat, which is the tenant.
      id: String(message.message_id),
      author,
      text: addressed.text,
      ts: messageTime(message.date, now),
      addressing: addressed.addressing,
      mentions: addressed.mentions,
      ...(addressed.replyToAuthorId ? { replyToAuthorId: addressed.replyToAuthorId } : {}),
      ...(addressed.replyToId ? { replyToId: addressed.replyToId } : {}),
      // In a group the answer replies to the message it is for, so that everyone sees whom it answers.
      replyTarget: {
        platform: "telegram",
        chatId: chat.id,
        chatType: chat.type,
        ...(topic !== undefined ? { threadId: topic } : {}),
        ...(inGroup ? { replyTo: message.message_id } : {}),
      } satisfies TelegramTarget,
      visibility: chatVisibility(chat),
      ...(files.length ? { files } : {}),
    },
  };
}
