/**
 * @module
 * A `callback_query` (a press of an inline keyboard's button on one of the bot's messages) → a press of one of its
 * controls (lib/approvals/capability.ts): who pressed (`from`), on which message of which chat (the forum topic
 * from the message, as every message's), which control (`data` after Parley's prefix: a bad client may send any
 * data, which then answers nothing; a Stop's answer and asker are read from the message, ./stream.ts), and the
 * query's id, which the press's answer (answerCallbackQuery) needs. The author of the message the question replies
 * to (the asker, in a group) is `named`, so that a stranger's note can name them. A press on an inline message (none
 * of Parley's) is ignored.
 */
import { describeIssues } from "../../zod-issues.ts";
import type { ControlPress } from "../../approvals/capability.ts";
import { FEEDBACK_ID_PREFIX } from "../../feedback/capability.ts";
import { stopControlId } from "../../stop/capability.ts";
import { displayName } from "./people.ts";
import { placeOf, topicOf } from "./place.ts";
import { callbackQuerySchema } from "./schema.ts";

/** What every approval button's `callback_data` starts with; the control's id follows it (1-64 bytes in all). */
export const APPROVAL_DATA_PREFIX = "parley_approval:";
/** What a feedback button's `callback_data` starts with (./feedback.ts): the control's id follows it. */
export const PARLEY_DATA_PREFIX = "parley_";
const FEEDBACK_DATA_PREFIX = `${PARLEY_DATA_PREFIX}${FEEDBACK_ID_PREFIX}`;
/**
 * A Stop button's `callback_data` (./stream.ts): all of it. Which answer it stops, and who asked, are read from the
 * message it is on, which replies to its trigger: Telegram sends that, where a bad client could send any data.
 */
export const STOP_DATA = "parley_stop";

export type CallbackParsed =
  | { kind: "control"; press: ControlPress }
  | { kind: "ignored"; reason: string }
  | { kind: "invalid"; issues: string };

export function parseCallbackQuery(raw: unknown, botId: string): CallbackParsed {
  const parsed = callbackQuerySchema.safeParse(raw);
  if (!parsed.success) return { kind: "invalid", issues: describeIssues(parsed.error, "callback_query.") };
  const { id, from, message, data = "" } = parsed.data;
  if (!message) return { kind: "ignored", reason: "callback_inline_message" };
  const replied = message.reply_to_message;
  const asker = replied?.from;
  const controlId = data.startsWith(APPROVAL_DATA_PREFIX)
    ? data.slice(APPROVAL_DATA_PREFIX.length)
    : data.startsWith(FEEDBACK_DATA_PREFIX)
      ? data.slice(PARLEY_DATA_PREFIX.length)
      : data === STOP_DATA && replied && asker
        ? stopControlId({ triggerId: String(replied.message_id), authorId: String(asker.id) })
        : "";
  return {
    kind: "control",
    press: {
      place: placeOf(botId, message.chat, topicOf(message)),
      person: String(from.id),
      messageRef: String(message.message_id),
      controlId,
      personName: displayName(from),
      reply: id,
      ...(asker && !asker.is_bot ? { named: { id: String(asker.id), name: displayName(asker) } } : {}),
    },
  };
}
