/**
 * @module
 * The sign that the bot is working on a Telegram answer: "typing…" (`sendChatAction`, in the answer's forum
 * topic), which Telegram shows for 5 seconds or until the bot's message arrives, so it is renewed a little before;
 * and in a group, where "typing…" does not say which message is being answered, a reaction on that message
 * (TELEGRAM_STATUS_REACTION, 👀 by default) taken off again when the sign comes down. A chat may not allow that
 * reaction: then only the typing shows.
 */
import type { ReactionTypeEmoji } from "@grammyjs/types";
import { errorMessage } from "../../log.ts";
import type { ReplyContext } from "../adapter.ts";
import type { AnswerFor, WorkingSign } from "../answer-stream.ts";
import { callTelegram, type TelegramCall } from "./api.ts";
import type { TelegramSettings } from "./settings.ts";
import type { TelegramTarget } from "./target.ts";

/** The status lasts 5 seconds "or less": renewed before it lapses. */
const TYPING_RENEW_MS = 4_000;
/** No rate is documented for reactions; a share of a group's twenty messages a minute is the cautious reading. */
const REACTIONS_PER_MINUTE = 10;

export async function telegramWorking(
  ctx: ReplyContext<TelegramSettings>,
  target: TelegramTarget,
  answer: AnswerFor,
): Promise<WorkingSign> {
  const call: TelegramCall = {
    apiBaseUrl: ctx.config.TELEGRAM_API_BASE_URL,
    token: await ctx.token(),
    fetch: ctx.fetch,
  };
  const quietly = (what: string) => (err: unknown) =>
    ctx.log.warn("working_sign_failed", { platform: "telegram", what, error: errorMessage(err) });
  const typing = () =>
    callTelegram(call, "sendChatAction", {
      chat_id: target.chatId,
      action: "typing",
      ...(target.threadId !== undefined ? { message_thread_id: target.threadId } : {}),
    });
  await typing();
  const renew = setInterval(() => void typing().catch(quietly("typing")), TYPING_RENEW_MS);
  const emoji = ctx.config.TELEGRAM_STATUS_REACTION;
  const messageId = Number(answer.triggerId);
  const react =
    target.chatType !== "private" &&
    emoji !== "" &&
    Number.isSafeInteger(messageId) &&
    (await ctx.callBudget("setMessageReaction", REACTIONS_PER_MINUTE));
  const reaction = (on: boolean) =>
    callTelegram(call, "setMessageReaction", {
      chat_id: target.chatId,
      message_id: messageId,
      reaction: on ? [{ type: "emoji", emoji: emoji as ReactionTypeEmoji["emoji"] }] : [],
    });
  const reacted = react
    ? await reaction(true).then(
        () => true,
        (err: unknown) => {
          quietly("reaction")(err);
          return false;
        },
      )
    : false;
  return {
    async stop() {
      clearInterval(renew);
      if (reacted) await reaction(false).catch(quietly("reaction"));
    },
  };
}
