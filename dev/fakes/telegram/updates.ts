/**
 * @module
 * Updates as Telegram sends them (the Bot API's Update, Message, MessageReactionUpdated, ChatMemberUpdated), built
 * from the fake's world, with the entities Telegram's server finds in plain text (`@username` mentions and
 * `/commands`, offsets in UTF-16 code units). Tests that post updates to the Worker themselves build them here too
 * (test/support/telegram.ts), so that the fake and the tests agree with each other and with test/fixtures.
 */
import type { FakeChat, FakeMessage, FakeUser } from "./world.ts";

/** What Telegram marks in text it did not get entities for: mentions of usernames (5-32 characters) and commands. */
export function plainTextEntities(text: string): object[] {
  const entities: { type: string; offset: number; length: number }[] = [];
  for (const match of text.matchAll(
    /(^|[^A-Za-z0-9_/@])(\/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{5,32})?|@[A-Za-z0-9_]{5,32})(?![A-Za-z0-9_@])/g,
  )) {
    const token = match[2]!;
    entities.push({
      type: token.startsWith("/") ? "bot_command" : "mention",
      offset: match.index + match[1]!.length,
      length: token.length,
    });
  }
  return entities;
}

export function chatObject(chat: FakeChat): Record<string, unknown> {
  return {
    id: chat.id,
    type: chat.type,
    ...(chat.title !== undefined ? { title: chat.title } : {}),
    ...(chat.username !== undefined ? { username: chat.username } : {}),
    ...(chat.first_name !== undefined ? { first_name: chat.first_name } : {}),
    ...(chat.is_forum ? { is_forum: true } : {}),
  };
}

export function userObject(user: FakeUser): Record<string, unknown> {
  return {
    id: user.id,
    is_bot: user.is_bot,
    first_name: user.first_name,
    ...(user.last_name !== undefined ? { last_name: user.last_name } : {}),
    ...(user.username !== undefined ? { username: user.username } : {}),
  };
}

/** A Message; `replied` is the message it answers (the Bot API nests it one level deep, without its own reply). */
export function messageObject(message: FakeMessage, chat: FakeChat, replied?: FakeMessage): Record<string, unknown> {
  const inTopic = message.thread !== undefined;
  return {
    message_id: message.message_id,
    ...(inTopic ? { message_thread_id: message.thread, is_topic_message: true } : {}),
    from: userObject(message.from),
    date: message.date,
    chat: chatObject(chat),
    ...(message.service === "forum_topic_created"
      ? { forum_topic_created: { name: message.text ?? "", icon_color: 7322096 } }
      : {}),
    ...(replied ? { reply_to_message: messageObject({ ...replied, reply_to: undefined }, chat) } : {}),
    ...(message.service === undefined && message.text !== undefined
      ? { [message.media ? "caption" : "text"]: message.text }
      : {}),
    ...(message.entities?.length ? { [message.media ? "caption_entities" : "entities"]: message.entities } : {}),
    ...message.media,
    ...(message.edited !== undefined ? { edit_date: message.edited } : {}),
    ...(message.reply_markup ? { reply_markup: message.reply_markup } : {}),
  };
}
