/**
 * @module
 * Inline keyboards in the Telegram fake, as the Bot API takes them (core.telegram.org/bots/api: InlineKeyboardMarkup,
 * InlineKeyboardButton, editMessageReplyMarkup, answerCallbackQuery): a keyboard is rows of buttons, each with a
 * text and, for the buttons Parley sends, `callback_data` of 1-64 bytes (BUTTON_DATA_INVALID otherwise); the message
 * keeps the keyboard it was sent or last edited with (editMessageText without `reply_markup` takes it away). A press
 * (./presses.ts) opens a callback query, which the bot answers once: an id the fake never issued, or one answered
 * before, is refused as Telegram refuses it ("query is too old and response timeout expired or query ID is
 * invalid"); the notification's text is at most 200 characters.
 */
import { ERRORS, badRequest } from "./errors.ts";
import { flood, type Method, ownMessage } from "./method-context.ts";
import { str, type Args } from "./params.ts";
import { messageObject } from "./updates.ts";

const MAX_CALLBACK_DATA_BYTES = 64;
const MAX_ANSWER_TEXT = 200;

interface InlineButton {
  text: string;
  callback_data: string;
}
export interface InlineKeyboard {
  inline_keyboard: InlineButton[][];
}

/** `reply_markup` as an inline keyboard Telegram takes: undefined when absent; refused (thrown) when not. */
export function inlineKeyboardOf(args: Args): InlineKeyboard | undefined {
  const markup = args.reply_markup;
  if (markup === undefined) return undefined;
  const rows = (markup as { inline_keyboard?: unknown } | null)?.inline_keyboard;
  if (!Array.isArray(rows) || !rows.every(Array.isArray))
    throw badRequest("the fake takes an inline keyboard only (reply_markup.inline_keyboard)");
  for (const button of rows.flat() as Record<string, unknown>[]) {
    if (typeof button?.text !== "string" || !button.text)
      throw badRequest("text buttons are unallowed in the inline keyboard");
    const data = button.callback_data;
    const bytes = typeof data === "string" ? new TextEncoder().encode(data).length : 0;
    if (bytes < 1 || bytes > MAX_CALLBACK_DATA_BYTES) throw badRequest("BUTTON_DATA_INVALID");
  }
  return { inline_keyboard: rows as InlineButton[][] };
}

export const KEYBOARD_METHODS: Readonly<Record<string, Method>> = {
  editMessageReplyMarkup(ctx, args) {
    const { chat, message } = ownMessage(ctx, args);
    const keyboard = inlineKeyboardOf(args);
    if (JSON.stringify(keyboard) === JSON.stringify(message.reply_markup)) throw ERRORS.notModified;
    flood(ctx, "editMessageReplyMarkup", chat);
    if (keyboard) message.reply_markup = keyboard;
    else delete message.reply_markup;
    ctx.record({ route: "editMessageReplyMarkup", chat_id: chat.id, message_id: message.message_id, keyboard });
    return messageObject(message, chat);
  },

  answerCallbackQuery(ctx, args) {
    const id = str(args, "callback_query_id") ?? "";
    const query = ctx.world.callbackQueries.get(id);
    if (!query || query.bot !== ctx.bot.id || query.answered)
      throw badRequest("query is too old and response timeout expired or query ID is invalid");
    const text = str(args, "text");
    if (text !== undefined && text.length > MAX_ANSWER_TEXT) throw badRequest("MESSAGE_TOO_LONG");
    query.answered = true;
    const alert = args.show_alert === true || args.show_alert === "true";
    ctx.record({
      route: "answerCallbackQuery",
      chat_id: query.chat_id,
      callback_query_id: id,
      text,
      show_alert: alert,
    });
    return true;
  },
};
