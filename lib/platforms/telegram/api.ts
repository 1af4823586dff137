/**
 * @module
 * One Bot API call (`POST <base>/bot<token>/<method>`, JSON), and Telegram's failures turned into what the job
 * flow acts on: PlatformRateLimited (429, after `parameters.retry_after`), GiveUp (a 4xx the same request can never get
 * past: the bot was removed, the chat is gone, the token is wrong), Error (5xx and the like: retry). Every method's
 * arguments are typed as @grammyjs/types declares them (a misspelt or missing field fails `npm run typecheck`);
 * only the types are used (a dev dependency, erased from the Worker's bundle). No error carries the token or text.
 */
import type * as Telegram from "@grammyjs/types";
import * as z from "../../zod.ts";
import { GiveUp } from "../../errors.ts";
import { httpFailure, PlatformAnswerError } from "../optional-read.ts";
import { PlatformRateLimited } from "../rate-limited.ts";

const REQUEST_TIMEOUT_MS = 10_000;
/** A 429 without `retry_after` (never documented, but a proxy in front may answer one). */
const DEFAULT_RETRY_AFTER_SECONDS = 1;

/** The methods Parley calls, with their arguments as the Bot API declares them. */
export type TelegramMethod =
  | "sendMessage"
  | "editMessageText"
  | "editMessageReplyMarkup"
  | "answerCallbackQuery"
  | "sendMessageDraft"
  | "sendChatAction"
  | "setMessageReaction"
  | "getMe"
  | "setWebhook"
  | "getWebhookInfo"
  | "getFile";
export type TelegramArgs<M extends TelegramMethod> = Telegram.Opts<never>[M];

const answerSchema = z.union([
  z.looseObject({ ok: z.literal(true), result: z.unknown() }),
  z.looseObject({
    ok: z.literal(false),
    error_code: z.number(),
    description: z.optional(z.string()),
    parameters: z.optional(
      z.looseObject({ retry_after: z.optional(z.number()), migrate_to_chat_id: z.optional(z.number()) }),
    ),
  }),
]);

export interface TelegramCall {
  apiBaseUrl: string;
  token: string;
  fetch?: typeof fetch;
}

/** Telegram refused the call for good: `status` is its error code, `description` its words (never the request's). */
export class TelegramRefused extends GiveUp {
  readonly status: number;
  readonly description: string;
  constructor(method: string, status: number, description: string) {
    super(`Telegram ${method} failed: ${status} ${description}`, `telegram_${status}`);
    this.name = "TelegramRefused";
    this.status = status;
    this.description = description;
  }
}

/** An edit that would leave the message as it is: Telegram refuses it, and there is nothing to do. */
export function isNotModified(err: unknown): boolean {
  return err instanceof TelegramRefused && err.status === 400 && err.description.includes("message is not modified");
}

/** Calls `method`; resolves with its `result`. */
export async function callTelegram<M extends TelegramMethod>(
  call: TelegramCall,
  method: M,
  args: TelegramArgs<M>,
): Promise<unknown> {
  const response = await (call.fetch ?? fetch)(`${call.apiBaseUrl}/bot${call.token}/${method}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(args),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const json: unknown = await response.json().catch(() => undefined);
  const parsed = answerSchema.safeParse(json);
  if (!parsed.success) {
    if (response.status === 429)
      throw new PlatformRateLimited(`Telegram ${method} rate limited`, DEFAULT_RETRY_AFTER_SECONDS);
    if (!response.ok) throw httpFailure(`Telegram ${method} (without a Bot API body)`, response.status);
    throw new PlatformAnswerError(
      `Telegram ${method} answered without a Bot API body`,
      json === undefined ? "not_json" : "unexpected_shape",
    );
  }
  const answer = parsed.data;
  if (answer.ok) return answer.result;
  if (answer.error_code === 429)
    throw new PlatformRateLimited(
      `Telegram ${method} rate limited`,
      Math.max(answer.parameters?.retry_after ?? DEFAULT_RETRY_AFTER_SECONDS, 1),
    );
  if (answer.error_code >= 400 && answer.error_code < 500)
    throw new TelegramRefused(method, answer.error_code, answer.description ?? "");
  throw httpFailure(`Telegram ${method}`, answer.error_code);
}

/** The `message_id` of a sent or edited Message. */
export function messageIdOf(result: unknown): number {
  return z.looseObject({ message_id: z.number().check(z.int(), z.positive()) }).parse(result).message_id;
}
