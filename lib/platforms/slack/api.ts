/**
 * @module
 * One call to Slack's Web API with the bot token, and Slack's failures turned into what the job flow acts on:
 * RetryLater (429 with Retry-After), GiveUp (an `ok:false` the same request can never get past), Error (retry).
 * Never puts message text into an error.
 */
import * as z from "../../zod.ts";
import { GiveUp, RetryLater } from "../../errors.ts";

const slackResponseSchema = z.looseObject({ ok: z.boolean(), error: z.optional(z.string()) });

const REQUEST_TIMEOUT_MS = 10_000;
/** The content type of a Web API call with a JSON body. */
export const JSON_TYPE = "application/json; charset=utf-8";
/** Used when a 429 carries no usable Retry-After. */
const DEFAULT_RETRY_AFTER_SECONDS = 1;
/** `ok:false` errors that the same request can never get past: retrying would only repeat them. */
const PERMANENT_ERRORS: ReadonlySet<string> = new Set([
  "channel_not_found",
  "thread_not_found",
  "not_in_channel",
  "is_archived",
  "msg_too_long",
  "no_text",
  "invalid_auth",
  "not_authed",
  "account_inactive",
  "token_revoked",
  "token_expired",
  "missing_scope",
  "restricted_action",
  "invalid_arguments",
  "ekm_access_denied",
]);

/** An `ok:false` that a retry may get past; `code` is Slack's error code. */
export class SlackError extends Error {
  readonly code: string;
  constructor(message: string, code: string) {
    super(message);
    this.name = "SlackError";
    this.code = code;
  }
}

export interface SlackCallArgs {
  apiBaseUrl: string;
  botToken: string;
  fetch?: typeof fetch;
}

/** A call that is not the bot's: oauth.v2.access authenticates the app's client by HTTP Basic. */
export interface SlackClientCallArgs {
  apiBaseUrl: string;
  authorization: string;
  fetch?: typeof fetch;
}

/** One Web API call: resolves with the `ok:true` body; 429 → RetryLater, a permanent error → GiveUp, else Error. */
export async function callSlack(args: SlackCallArgs | SlackClientCallArgs, method: string, body: string, contentType: string): Promise<Record<string, unknown>> {
  const doFetch = args.fetch ?? fetch;
  const response = await doFetch(`${args.apiBaseUrl}/${method}`, {
    method: "POST",
    headers: { Authorization: "botToken" in args ? `Bearer ${args.botToken}` : args.authorization, "Content-Type": contentType },
    body,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if (response.status === 429) {
    await response.body?.cancel();
    throw new RetryLater(`Slack ${method} rate limited`, retryAfterSeconds(response.headers));
  }
  // Slack answers an unknown method (streaming on an older workspace) with 404 and an `ok:false` body.
  if (!response.ok && response.status !== 404) {
    await response.body?.cancel();
    throw new Error(`Slack ${method} answered HTTP ${response.status}`);
  }
  const parsed = slackResponseSchema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) throw new Error(`Slack ${method} answered an unexpected body`);
  if (!parsed.data.ok) {
    const code = parsed.data.error ?? "unknown_error";
    const message = `Slack ${method} failed: ${code}`;
    throw PERMANENT_ERRORS.has(code) ? new GiveUp(message, code) : new SlackError(message, code);
  }
  return parsed.data;
}

/** Slack's error code of a failed call, if it gave one. */
export function slackErrorCode(err: unknown): string | undefined {
  return err instanceof SlackError || err instanceof GiveUp ? err.code : undefined;
}

function retryAfterSeconds(headers: Headers): number {
  const seconds = Number(headers.get("Retry-After"));
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : DEFAULT_RETRY_AFTER_SECONDS;
}
