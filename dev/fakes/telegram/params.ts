/**
 * @module
 * A Bot API call's arguments as Telegram's server reads them: a JSON body, a form (`application/x-www-form-urlencoded`,
 * its objects JSON-encoded) or the query string, all the same to it. Each method the fake serves lists its
 * parameters (the Bot API reference); one it does not know is refused, where Telegram would ignore it: stricter on
 * purpose, since a misspelt parameter that Telegram silently drops is a bug nobody would see.
 */
import { badRequest, type BotApiError } from "./errors.ts";

/** The parameters of each method the fake serves (the Bot API reference), required ones first. */
export const METHOD_PARAMS: Readonly<Record<string, { required: readonly string[]; optional: readonly string[] }>> = {
  getMe: { required: [], optional: [] },
  setWebhook: {
    required: ["url"],
    optional: [
      "certificate",
      "ip_address",
      "max_connections",
      "allowed_updates",
      "drop_pending_updates",
      "secret_token",
    ],
  },
  deleteWebhook: { required: [], optional: ["drop_pending_updates"] },
  getWebhookInfo: { required: [], optional: [] },
  getFile: { required: ["file_id"], optional: [] },
  sendMessage: {
    required: ["chat_id", "text"],
    optional: [
      "business_connection_id",
      "message_thread_id",
      "direct_messages_topic_id",
      "parse_mode",
      "entities",
      "link_preview_options",
      "disable_notification",
      "protect_content",
      "allow_paid_broadcast",
      "message_effect_id",
      "suggested_post_parameters",
      "reply_parameters",
      "reply_markup",
    ],
  },
  editMessageText: {
    required: ["text"],
    optional: [
      "business_connection_id",
      "chat_id",
      "message_id",
      "inline_message_id",
      "parse_mode",
      "entities",
      "link_preview_options",
      "rich_message",
      "reply_markup",
    ],
  },
  sendMessageDraft: {
    required: ["chat_id", "draft_id"],
    optional: ["message_thread_id", "text", "parse_mode", "entities", "can_stop", "keep_on_stop"],
  },
  editMessageReplyMarkup: {
    required: [],
    optional: ["business_connection_id", "chat_id", "message_id", "inline_message_id", "reply_markup"],
  },
  answerCallbackQuery: { required: ["callback_query_id"], optional: ["text", "show_alert", "url", "cache_time"] },
  sendChatAction: { required: ["chat_id", "action"], optional: ["business_connection_id", "message_thread_id"] },
  setMessageReaction: { required: ["chat_id", "message_id"], optional: ["reaction", "is_big"] },
};

export type Args = Record<string, unknown>;

/** The call's arguments: JSON values, or strings (a form's objects decoded). */
export function readArgs(contentType: string | undefined, body: string, query: URLSearchParams): Args | BotApiError {
  if (contentType?.startsWith("application/json")) {
    try {
      const parsed: unknown = body ? JSON.parse(body) : {};
      return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
        ? (parsed as Args)
        : badRequest("request body must be a JSON object");
    } catch {
      return badRequest("can't parse JSON object");
    }
  }
  const form = contentType?.startsWith("application/x-www-form-urlencoded") ? new URLSearchParams(body) : query;
  return Object.fromEntries([...form].map(([k, v]) => [k, /^[[{]/.test(v) ? tryJson(v) : v]));
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The refusal for a parameter the method does not take, or a required one missing; undefined when all is well. */
export function checkParams(method: string, args: Args): BotApiError | undefined {
  const spec = METHOD_PARAMS[method]!;
  for (const name of Object.keys(args)) {
    if (!spec.required.includes(name) && !spec.optional.includes(name))
      return badRequest(`unknown parameter ${name} (the fake refuses what Telegram would ignore)`);
  }
  const missing = spec.required.find((name) => args[name] === undefined || args[name] === "");
  if (missing === "text") return badRequest("message text is empty");
  return missing ? badRequest(`parameter "${missing}" is required`) : undefined;
}

export function int(args: Args, name: string): number | undefined {
  const value = args[name];
  if (value === undefined || value === "") return undefined;
  const n = typeof value === "number" ? value : Number(value);
  return Number.isSafeInteger(n) ? n : Number.NaN;
}

export function str(args: Args, name: string): string | undefined {
  const value = args[name];
  return value === undefined ? undefined : String(value);
}
