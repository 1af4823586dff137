/**
 * @module
 * The Bot API's answers as the fake gives them: `{ok: true, result}`, or `{ok: false, error_code, description,
 * parameters?}` with the HTTP status equal to `error_code`, in the words Telegram's own server uses
 * (tdlib/telegram-bot-api's Client.cpp and the errors bots meet). A text Telegram does not document is marked so.
 */
import type { ServerResponse } from "node:http";
import { sendJson } from "../http.ts";
import type { FakeFault } from "../faults.ts";

export class BotApiError extends Error {
  readonly code: number;
  readonly retryAfter: number | undefined;
  constructor(code: number, description: string, retryAfter?: number) {
    super(description);
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

export const badRequest = (what: string) => new BotApiError(400, `Bad Request: ${what}`);
export const forbidden = (what: string) => new BotApiError(403, `Forbidden: ${what}`);
/** Telegram's flood control: 429, "retry after N", and `parameters.retry_after` (whole seconds). */
export const tooManyRequests = (seconds: number) =>
  new BotApiError(429, `Too Many Requests: retry after ${seconds}`, seconds);

export const ERRORS = {
  unauthorized: new BotApiError(401, "Unauthorized"),
  methodNotFound: new BotApiError(404, "Not Found: method not found"),
  chatNotFound: badRequest("chat not found"),
  textEmpty: badRequest("message text is empty"),
  textTooLong: badRequest("message is too long"),
  threadNotFound: badRequest("message thread not found"),
  replyNotFound: badRequest("message to be replied not found"),
  editNotFound: badRequest("message to edit not found"),
  cannotEdit: badRequest("message can't be edited"),
  notModified: badRequest(
    "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
  ),
  reactNotFound: badRequest("message to react not found"),
  reactionInvalid: badRequest("REACTION_INVALID"),
  reactionsTooMany: badRequest("REACTIONS_TOO_MANY"),
  wrongAction: badRequest("Wrong parameter action in request"),
  webhookUrl: badRequest("invalid webhook URL specified"),
  secretChars: badRequest("secret token contains unallowed characters"),
  secretLong: badRequest("secret token is too long"),
  /** Undocumented: a draft's chat must be a private chat ("Unique identifier for the target private chat"). */
  draftPeer: badRequest("TEXTDRAFT_PEER_INVALID"),
  draftId: badRequest("draft_id must be non-zero"),
} as const;

export function sendOk(res: ServerResponse, result: unknown): void {
  sendJson(res, 200, { ok: true, result });
}

export function sendBotApiError(res: ServerResponse, err: BotApiError): void {
  sendJson(res, err.code, {
    ok: false,
    error_code: err.code,
    description: err.message,
    ...(err.retryAfter !== undefined ? { parameters: { retry_after: err.retryAfter } } : {}),
  });
}

/** A scripted refusal: flood control, a server error, or the description given (`error`, status 400 unless set). */
export function refuseAsTelegram(res: ServerResponse, fault: FakeFault): void {
  if (fault.fault === "ratelimit") return sendBotApiError(res, tooManyRequests(Math.ceil(fault.retryAfter ?? 1)));
  if (fault.fault === "refuse")
    return sendBotApiError(
      res,
      new BotApiError(fault.status, fault.status >= 500 ? "Internal Server Error" : `Scripted error ${fault.status}`),
    );
  if (fault.fault === "error") sendBotApiError(res, new BotApiError(fault.status ?? 400, fault.error));
}
