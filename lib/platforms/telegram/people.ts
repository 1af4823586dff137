/**
 * @module
 * Who wrote a Telegram message, as the chat shows it: a person or bot by their name (first and last), or, for a
 * message sent on behalf of a chat (an anonymous admin, a linked channel's post), that chat by its title. A
 * channel's post forwarded into its discussion group is no person's and is read as a bot's (never answered).
 */
import type { Author } from "../../message.ts";
import type { TelegramMessage, TelegramUser } from "./schema.ts";

export function displayName(user: TelegramUser): string {
  return [user.first_name, user.last_name].filter(Boolean).join(" ") || user.username || String(user.id);
}

export function authorOf(message: TelegramMessage): Author | null {
  const chat = message.sender_chat;
  if (chat)
    return {
      id: `chat${chat.id}`,
      name: chat.title ?? chat.username ?? "a chat",
      isBot: Boolean(message.is_automatic_forward) || chat.type === "channel",
    };
  const user = message.from;
  return user ? { id: String(user.id), name: displayName(user), isBot: user.is_bot } : null;
}
