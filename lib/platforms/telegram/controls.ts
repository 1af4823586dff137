/**
 * @module
 * An approval's controls on Telegram (lib/approvals/capability.ts): an inline keyboard of two buttons (Approve,
 * Cancel) put on the question by editMessageReplyMarkup; once decided, editMessageText shows the question with the
 * outcome under it, and (no `reply_markup`) the keyboard is gone. A button's `callback_data` is Parley's prefix and
 * the control's id (./callback.ts). Every press is answered with answerCallbackQuery (the client shows a spinner
 * until then): nothing for a press that decided, else the note in an alert only the presser sees. An answer
 * Telegram refuses (a query answered before, one too old) is logged, and the delivery still acknowledged: Telegram
 * would only deliver it again. Telegram shows no name for a bare user id, so a note names the asker by name.
 */
import type { Control, ControlPress } from "../../approvals/capability.ts";
import { errorMessage } from "../../log.ts";
import type { ReplyContext } from "../adapter.ts";
import { waitingOutRateLimits } from "../rate-limited.ts";
import { callTelegram, isNotModified, type TelegramCall } from "./api.ts";
import { APPROVAL_DATA_PREFIX } from "./callback.ts";
import { telegramHtml } from "./format.ts";
import type { TelegramSettings } from "./settings.ts";
import type { TelegramTarget } from "./target.ts";

/** The longest outcome line (lib/notices.ts CONTROL_OUTCOMES, with a name) and the blank line above it. */
export const OUTCOME_ROOM_CHARS = 200;
/** Who a note names when the press does not say the asker's name. */
const UNNAMED_ASKER = "the person who asked";

async function call(ctx: ReplyContext<TelegramSettings>): Promise<TelegramCall> {
  return { apiBaseUrl: ctx.config.TELEGRAM_API_BASE_URL, token: await ctx.token(), fetch: ctx.fetch };
}

/** An edit that leaves the message as it was (a repeat of the same edit) is done. */
const unlessUnchanged = (err: unknown) => {
  if (!isNotModified(err)) throw err;
};

export const telegramControls = {
  async offer(
    ctx: ReplyContext<TelegramSettings>,
    target: TelegramTarget,
    ref: string,
    _question: string,
    controls: readonly Control[],
  ): Promise<void> {
    const args = await call(ctx);
    const row = controls.map((c) => ({ text: c.label, callback_data: `${APPROVAL_DATA_PREFIX}${c.id}` }));
    await waitingOutRateLimits(() =>
      callTelegram(args, "editMessageReplyMarkup", {
        chat_id: target.chatId,
        message_id: Number(ref),
        reply_markup: { inline_keyboard: [row] },
      }),
    ).catch(unlessUnchanged);
  },
  async settle(
    ctx: ReplyContext<TelegramSettings>,
    target: TelegramTarget,
    ref: string,
    question: string,
    outcome: string,
  ): Promise<void> {
    const args = await call(ctx);
    await waitingOutRateLimits(() =>
      callTelegram(args, "editMessageText", {
        chat_id: target.chatId,
        message_id: Number(ref),
        text: telegramHtml(`${question}\n\n${outcome}`),
        parse_mode: "HTML",
        link_preview_options: { is_disabled: true },
      }),
    ).catch(unlessUnchanged);
  },
  async answer(ctx: ReplyContext<TelegramSettings>, press: ControlPress, note: string | null): Promise<Response> {
    if (press.reply) {
      const args = await call(ctx);
      await callTelegram(args, "answerCallbackQuery", {
        callback_query_id: press.reply,
        ...(note !== null ? { text: note, show_alert: true } : {}),
      }).catch((err: unknown) => ctx.log.warn("telegram_callback_unanswered", { error: errorMessage(err) }));
    }
    return new Response(null, { status: 200 });
  },
  mention: (_person: string, name?: string) => name ?? UNNAMED_ASKER,
};
