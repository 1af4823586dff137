/**
 * @module
 * How a Telegram message addresses the bot, from what Telegram itself marks in it (entities), never guessed from
 * the words: a private chat is a DM; a command at the start (`/ask@<bot> …`, or a bare `/ask` of the bot's own
 * commands: in privacy mode Telegram sends a bare command only when the bot was the last bot to speak); a
 * `mention` entity of `@<bot username>` or a `text_mention` of the bot's id; a reply to one of the bot's messages
 * (not the service message that opened a forum topic, which every message of the topic "replies" to). Whom else it
 * mentions: text mentions by id, `@username` mentions by name (`@name`, lower case: only names are known).
 */
import type { Addressing } from "../../message.ts";
import type { TelegramEntity, TelegramMessage } from "./schema.ts";

/** The bot's commands; any other command addressed to it is still a command, read as written. */
const ASK_COMMAND = "ask";
const FORGET_COMMAND = "forget";
/** What /forget says on the person's behalf: the engine's whole-message "forget me" request. */
const FORGET_REQUEST_TEXT = "forget me";
/** Telegram asks every bot to answer these (the "Start" button, the profile's Help). */
const BOT_COMMANDS: ReadonlySet<string> = new Set([ASK_COMMAND, FORGET_COMMAND, "start", "help"]);
const COMMAND = /^\/([A-Za-z0-9_]{1,32})(?:@([A-Za-z0-9_]{1,32}))?(?:\s+|$)/;

export interface Bot {
  id: string;
  /** Without its @. */
  username: string;
  /** BOT_NAME: the bot's `@username` reads as this name in the text the model gets. */
  name: string;
}

export interface Addressed {
  addressing: Addressing;
  /** The text as the model gets it: a command's question, the bot's `@username` as its name. */
  text: string;
  mentions: string[];
  replyToAuthorId?: string;
  replyToId?: string;
}

/** The text of an entity: offsets and lengths count UTF-16 code units, as JavaScript strings do. */
function entityText(text: string, entity: TelegramEntity): string {
  return text.slice(entity.offset, entity.offset + entity.length);
}

export function readAddressing(
  message: TelegramMessage,
  text: string,
  entities: readonly TelegramEntity[],
  bot: Bot,
): Addressed {
  const own = (name: string) => name.toLowerCase() === bot.username.toLowerCase();
  const mentions: string[] = [];
  let mentioned = false;
  for (const entity of entities) {
    if (entity.type === "text_mention" && entity.user) {
      const id = String(entity.user.id);
      mentioned ||= id === bot.id;
      if (!mentions.includes(id)) mentions.push(id);
    } else if (entity.type === "mention") {
      const name = entityText(text, entity).slice(1);
      const id = own(name) ? bot.id : `@${name.toLowerCase()}`;
      mentioned ||= id === bot.id;
      if (!mentions.includes(id)) mentions.push(id);
    }
  }
  const replied = message.reply_to_message;
  const reply = replied && replied.forum_topic_created === undefined ? replied : undefined;
  const replyTo = {
    ...(reply?.from ? { replyToAuthorId: String(reply.from.id) } : {}),
    ...(reply ? { replyToId: String(reply.message_id) } : {}),
  };
  const readable = text.replace(new RegExp(`@${bot.username}\\b`, "gi"), `@${bot.name}`);
  const command = commandOf(text, entities);
  if (command && (command.to === undefined ? BOT_COMMANDS.has(command.name.toLowerCase()) : own(command.to))) {
    return {
      addressing: message.chat.type === "private" ? "dm" : "command",
      text: questionOf(command),
      mentions,
      ...replyTo,
    };
  }
  // A command for another bot is addressed to someone else.
  if (command?.to !== undefined && !mentions.includes(`@${command.to.toLowerCase()}`))
    mentions.push(`@${command.to.toLowerCase()}`);
  const addressing: Addressing =
    message.chat.type === "private"
      ? "dm"
      : mentioned
        ? "mention"
        : reply?.from && String(reply.from.id) === bot.id
          ? "reply_to_bot"
          : "none";
  return { addressing, text: readable, mentions, ...replyTo };
}

/** A command at the very start of the text, as Telegram marks it (a `bot_command` entity at offset 0). */
function commandOf(
  text: string,
  entities: readonly TelegramEntity[],
): { name: string; to?: string; rest: string } | null {
  if (!entities.some((e) => e.type === "bot_command" && e.offset === 0)) return null;
  const match = COMMAND.exec(text);
  if (!match) return null;
  return { name: match[1]!, ...(match[2] ? { to: match[2] } : {}), rest: text.slice(match[0].length).trim() };
}

/** `/ask <question>` asks the question; `/forget` is "forget me"; any other command is read as written. */
function questionOf(command: { name: string; rest: string }): string {
  const name = command.name.toLowerCase();
  if (name === ASK_COMMAND && command.rest) return command.rest;
  if (name === FORGET_COMMAND) return FORGET_REQUEST_TEXT;
  return command.rest ? `/${name} ${command.rest}` : `/${name}`;
}
