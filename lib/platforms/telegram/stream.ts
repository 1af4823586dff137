/**
 * @module
 * Telegram answers shown as they are written. In a private chat: `sendMessageDraft`, the Bot API's streamed
 * preview (ephemeral: it lasts about 30 s unless shown again, and goes when the bot sends a message), then
 * `sendMessage` with the answer's first part, which is the message that stays. In a group (no drafts there): the
 * first words posted as a reply to the trigger, then edited as the answer grows, at most every few seconds and
 * within a small share of the group's allowance (Telegram lets a bot send about twenty messages a minute into a
 * group, edits counted), so that a growing answer never spends what the next answer needs; each progress edit
 * carries a Stop button (an inline keyboard), which the final edit takes away. A draft carries no keyboard: in a
 * private chat an answer has no Stop. Past 4,096 characters
 * the message stops growing and the rest follows as further messages once the answer is complete.
 */
import { bytesToHex } from "../../crypto.ts";
import { RetryLater } from "../../errors.ts";
import { errorMessage } from "../../log.ts";
import type { StreamState } from "../../message.ts";
import type { ReplyContext, StreamingCapability } from "../adapter.ts";
import { renderSnapshot } from "../answer-format.ts";
import type { AnswerStream } from "../answer-stream.ts";
import { waitingOutRateLimits } from "../rate-limited.ts";
import { callTelegram, isNotModified, messageIdOf, type TelegramCall, TelegramRefused } from "./api.ts";
import { TELEGRAM_MAX_MESSAGE_CHARS, telegramFormat, telegramHtml } from "./format.ts";
import { STOP_DATA } from "./callback.ts";
import { messageArgs } from "./send.ts";
import type { TelegramSettings } from "./settings.ts";
import type { TelegramTarget } from "./target.ts";

/** A draft shows each new text animated; once a second is smooth and well inside one chat's pace. */
const DRAFT_INTERVAL_MS = 1_000;
/** A growing group message is edited at most this often... */
const GROUP_EDIT_INTERVAL_MS = 3_000;
/** ...and at most this many times a minute per group, of the twenty messages a minute Telegram allows there. */
const PROGRESS_EDITS_PER_MINUTE = 6;

type TelegramContext = ReplyContext<TelegramSettings>;

export const telegramStreaming: StreamingCapability<TelegramTarget, TelegramSettings> = {
  maxChars: TELEGRAM_MAX_MESSAGE_CHARS,
  intervalMs: DRAFT_INTERVAL_MS,

  async open(ctx, target, text, answer) {
    const call = await callOf(ctx);
    if (target.chatType === "private") {
      const draftId = await draftIdOf(answer.triggerId);
      try {
        await callTelegram(call, "sendMessageDraft", draftArgs(target, draftId, text));
      } catch (err) {
        // A chat that takes no draft now (refused, or flood control): the answer is posted whole when it is complete.
        if (!(err instanceof TelegramRefused) && !(err instanceof RetryLater)) throw err;
        ctx.log.info("telegram_draft_refused", { status: err instanceof TelegramRefused ? err.status : 429 });
        return null;
      }
      return draftStream(ctx, target, { id: String(draftId), mode: "native", shown: text, open: true });
    }
    // Nothing can tell whether an earlier attempt's post of these first words landed (`answer.unsure`): it is posted.
    const id = messageIdOf(
      await waitingOutRateLimits(() =>
        callTelegram(call, "sendMessage", messageArgs(target, snapshot(text, target), true)),
      ),
    );
    return editStream(ctx, target, { id: String(id), mode: "edit", shown: text, open: false });
  },

  // A resumed group message may show its Stop button: its final edit takes it away whatever it shows.
  resume: (ctx, target, state) =>
    state.mode === "native" ? draftStream(ctx, target, { ...state }) : editStream(ctx, target, { ...state }, true),
};

async function callOf(ctx: TelegramContext): Promise<TelegramCall> {
  return { apiBaseUrl: ctx.config.TELEGRAM_API_BASE_URL, token: await ctx.token(), fetch: ctx.fetch };
}

/** One answer's draft id on every attempt (non-zero, within a 32-bit integer): its changes animate as one draft. */
async function draftIdOf(triggerId: string): Promise<number> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`draft:${triggerId}`)));
  return (parseInt(bytesToHex(digest.slice(0, 4)), 16) % 2_147_483_646) + 1;
}

/** A snapshot of the answer as a draft or a growing message shows it, its open marks closed. */
const snapshot = (text: string, target: TelegramTarget) => renderSnapshot(telegramFormat, text, target);

function draftArgs(target: TelegramTarget, draftId: number, text: string) {
  return {
    chat_id: target.chatId,
    draft_id: draftId,
    text: snapshot(text, target),
    parse_mode: "HTML" as const,
    ...(target.threadId !== undefined ? { message_thread_id: target.threadId } : {}),
  };
}

/** The state's `id` is the draft's until `finish` sends the message; then the message's, in `edit` mode. */
function draftStream(ctx: TelegramContext, target: TelegramTarget, state: StreamState): AnswerStream {
  return {
    state,
    unfindable: true,
    async show(text) {
      try {
        await callTelegram(await callOf(ctx), "sendMessageDraft", draftArgs(target, Number(state.id), text));
        state.shown = text;
      } catch (err) {
        // A missed preview costs nothing: the next one, or the message, carries the text.
        ctx.log.warn("telegram_draft_failed", { error: errorMessage(err) });
      }
    },
    async finish(text) {
      // A draft is no message: the answer's first part is sent as the one that stays (the draft then goes).
      const call = await callOf(ctx);
      const id = messageIdOf(
        await waitingOutRateLimits(() =>
          callTelegram(call, "sendMessage", messageArgs(target, telegramHtml(text), true)),
        ),
      );
      Object.assign(state, { id: String(id), mode: "edit", shown: text, open: false });
    },
    async close() {
      // Nothing to stop: a draft not shown again fades by itself.
      state.open = false;
    },
  };
}

/** The Stop button a growing group message shows (./callback.ts): one row, one button. */
const STOP_KEYBOARD = { inline_keyboard: [[{ text: "Stop", callback_data: STOP_DATA }]] };

function editStream(ctx: TelegramContext, target: TelegramTarget, state: StreamState, buttoned = false): AnswerStream {
  let editedAt = ctx.now();
  // A progress edit is never waited for (the next one carries its text); the last one is, as a message would be.
  // A progress edit carries the Stop button; an edit without `reply_markup` (the last one) takes it away.
  const edit = async (html: string, mustLand: boolean) => {
    try {
      const args = {
        chat_id: target.chatId,
        message_id: Number(state.id),
        text: html,
        parse_mode: "HTML" as const,
        link_preview_options: { is_disabled: true },
        ...(mustLand ? {} : { reply_markup: STOP_KEYBOARD }),
      };
      const call = await callOf(ctx);
      const editing = () => callTelegram(call, "editMessageText", args);
      await (mustLand ? waitingOutRateLimits(editing) : editing());
    } catch (err) {
      if (!isNotModified(err)) throw err;
    }
  };
  return {
    state,
    unfindable: true,
    async show(text) {
      if (
        ctx.now() - editedAt < GROUP_EDIT_INTERVAL_MS ||
        !(await ctx.callBudget("editMessageText progress", PROGRESS_EDITS_PER_MINUTE))
      )
        return;
      editedAt = ctx.now();
      try {
        await edit(snapshot(text, target), false);
        buttoned = true;
        state.shown = text;
      } catch (err) {
        // A refused edit is left out (a later one, or the final one, carries the text); a limit is never pushed.
        ctx.log.warn("telegram_stream_edit_failed", { error: errorMessage(err) });
      }
    },
    async finish(text) {
      if (state.shown !== text || snapshot(text, target) !== telegramHtml(text)) await edit(telegramHtml(text), true);
      else if (buttoned) await unbutton();
      buttoned = false;
      state.shown = text;
    },
    close: async () => undefined,
  };

  /** Takes the Stop button away from a message that already shows the whole answer. */
  async function unbutton() {
    const call = await callOf(ctx);
    const args = { chat_id: target.chatId, message_id: Number(state.id) };
    await waitingOutRateLimits(() => callTelegram(call, "editMessageReplyMarkup", args)).catch((err: unknown) => {
      if (!isNotModified(err)) throw err;
    });
  }
}
