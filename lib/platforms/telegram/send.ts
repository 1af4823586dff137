/**
 * @module
 * Posts the bot's answer with `sendMessage`, split into messages of at most 4,096 characters (cut where
 * ../../text/split.ts cuts, never inside a word), the first as a reply to the message it answers in a group, in its
 * forum topic, in the Bot API's HTML (./format.ts: the model's Markdown rendered, every other character escaped)
 * with link previews off (a preview would fetch whatever URL the model wrote). The Bot API takes no idempotency key and
 * cannot list a
 * chat's messages, so a part whose call began and never came back cannot be looked for: a later attempt posts it
 * again, and it may then appear twice (docs/platforms/telegram.md, "Exactly once").
 */
import type { PartProgress } from "../../message.ts";
import { splitText } from "../../text/split.ts";
import { postParts } from "../parts.ts";
import { waitingOutRateLimits } from "../rate-limited.ts";
import { callTelegram, messageIdOf, type TelegramArgs, type TelegramCall } from "./api.ts";
import { TELEGRAM_MAX_MESSAGE_CHARS, telegramHtml } from "./format.ts";
import type { TelegramTarget } from "./target.ts";

/** Where a message of the answer goes (`html`: rendered by ./format.ts), and the reply to the trigger for the first. */
export function messageArgs(target: TelegramTarget, html: string, first: boolean): TelegramArgs<"sendMessage"> {
  return {
    chat_id: target.chatId,
    text: html,
    parse_mode: "HTML",
    ...(target.threadId !== undefined ? { message_thread_id: target.threadId } : {}),
    ...(first && target.replyTo !== undefined
      ? { reply_parameters: { message_id: target.replyTo, allow_sending_without_reply: true } }
      : {}),
    link_preview_options: { is_disabled: true },
  };
}

/** Posts `text` in order as one or more messages; returns the ids of the messages this call posted. */
export function sendTelegramReply(
  call: TelegramCall,
  target: TelegramTarget,
  text: string,
  progress: PartProgress,
): Promise<string[]> {
  return postParts(splitText(text, TELEGRAM_MAX_MESSAGE_CHARS).map(telegramHtml), progress, {
    unfindable: true,
    post: async (part, index) =>
      String(
        messageIdOf(
          await waitingOutRateLimits(() => callTelegram(call, "sendMessage", messageArgs(target, part, index === 0))),
        ),
      ),
  });
}
