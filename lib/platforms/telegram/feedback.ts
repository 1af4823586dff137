/**
 * @module
 * Feedback on answers on Telegram (lib/feedback/capability.ts), where TELEGRAM_FEEDBACK turns it on for every chat
 * of the bot (Telegram has no `/parley` to turn it on per chat): the answer's last message gets an inline keyboard
 * of 👍 and 👎 through editMessageReplyMarkup (its text stays as sent), each button's `callback_data` `parley_` and
 * the control's id (`parley_feedback:down:u`, 22 of Telegram's 1-64 bytes; ./callback.ts reads it back). A press is
 * answered as an approval's is; a 👎 under an unprompted answer counts as a 👎 reaction on it does (./reaction.ts).
 */
import type { ControlPress } from "../../approvals/capability.ts";
import type { FeedbackControl } from "../../feedback/capability.ts";
import type { ReplyContext } from "../adapter.ts";
import { waitingOutRateLimits } from "../rate-limited.ts";
import { callTelegram, isNotModified } from "./api.ts";
import { PARLEY_DATA_PREFIX } from "./callback.ts";
import { telegramNotYou } from "./reaction.ts";
import type { TelegramSettings } from "./settings.ts";
import type { TelegramTarget } from "./target.ts";

/**
 * The chat a press came from, as far as its id tells: a person's private chat has their positive id, a group a
 * negative one (a supergroup's begins -100). Its username is not known here, so it counts as a members-only group.
 */
function chatOf(chatId: number) {
  const type = chatId > 0 ? "private" : String(chatId).startsWith("-100") ? "supergroup" : "group";
  return { id: chatId, type } as const;
}

export const telegramFeedback = {
  async offer(
    ctx: ReplyContext<TelegramSettings>,
    target: TelegramTarget,
    ref: string,
    _answer: string,
    controls: readonly FeedbackControl[],
  ): Promise<void> {
    const call = { apiBaseUrl: ctx.config.TELEGRAM_API_BASE_URL, token: await ctx.token(), fetch: ctx.fetch };
    const row = controls.map((c) => ({ text: c.label, callback_data: `${PARLEY_DATA_PREFIX}${c.id}` }));
    const args = { chat_id: target.chatId, message_id: Number(ref), reply_markup: { inline_keyboard: [row] } };
    await waitingOutRateLimits(() => callTelegram(call, "editMessageReplyMarkup", args)).catch((err: unknown) => {
      if (!isNotModified(err)) throw err;
    });
  },
  notYou: (press: ControlPress, now: number) =>
    telegramNotYou(
      press.place,
      chatOf(Number(press.place.channel)),
      { messageId: press.messageRef, ts: now },
      {
        id: press.person,
        name: press.personName ?? press.person,
        isBot: false,
      },
    ),
};
