/**
 * @module
 * A `callback_query` (a press of an inline keyboard's button on one of the bot's messages) → a press of one of its
 * controls (lib/approvals/capability.ts): who pressed (`from`), on which message of which chat (the forum topic
 * from the message, as every message's), which control (`data` after Parley's prefix: a bad client may send any
 * data, which then answers nothing), and the query's id, which the press's answer (answerCallbackQuery) needs. The
 * author of the message the question replies to (the asker, in a group) is `named`, so that a stranger's note can
 * name them. A press on an inline message (none of Parley's) is ignored.
 */
import { describeIssues } from "../../zod-issues.ts";
import type { ControlPress } from "../../approvals/capability.ts";
import { displayName } from "./people.ts";
import { placeOf, topicOf } from "./place.ts";
import { callbackQuerySchema } from "./schema.ts";

/** What every approval button's `callback_data` starts with; the control's id follows it (1-64 bytes in all). */
export const APPROVAL_DATA_PREFIX = "parley_approval:";

export type CallbackParsed =
  | { kind: "control"; press: ControlPress }
  | { kind: "ignored"; reason: string }
  | { kind: "invalid"; issues: string };

export function parseCallbackQuery(raw: unknown, botId: string): CallbackParsed {
  const parsed = callbackQuerySchema.safeParse(raw);
  if (!parsed.success) return { kind: "invalid", issues: describeIssues(parsed.error, "callback_query.") };
  const { id, from, message, data = "" } = parsed.data;
  if (!message) return { kind: "ignored", reason: "callback_inline_message" };
  const asker = message.reply_to_message?.from;
  return {
    kind: "control",
    press: {
      place: placeOf(botId, message.chat, topicOf(message)),
      person: String(from.id),
      messageRef: String(message.message_id),
      controlId: data.startsWith(APPROVAL_DATA_PREFIX) ? data.slice(APPROVAL_DATA_PREFIX.length) : "",
      reply: id,
      ...(asker && !asker.is_bot ? { named: { id: String(asker.id), name: displayName(asker) } } : {}),
    },
  };
}
