/**
 * @module
 * Where a Telegram answer goes: the chat, the forum topic (`message_thread_id`) when the message was in one, the
 * message to reply to (the trigger, in a group), and the chat's type: a private chat streams drafts, a group edits
 * a posted message (./stream.ts).
 */
import * as z from "../../zod.ts";

export const telegramTargetSchema = z.object({
  platform: z.literal("telegram"),
  chatId: z.number().check(z.int()),
  chatType: z.enum(["private", "group", "supergroup"]),
  threadId: z.optional(z.number().check(z.int(), z.positive())),
  replyTo: z.optional(z.number().check(z.int(), z.positive())),
});

export type TelegramTarget = z.output<typeof telegramTargetSchema>;
