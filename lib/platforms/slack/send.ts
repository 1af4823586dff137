/**
 * @module
 * Posts the bot's answer with Slack's `chat.postMessage`, split into messages of at most 4,000 characters, and
 * turns Slack's failures into what the job flow acts on: RetryLater (429), GiveUp (permanent), Error (retry).
 */
import * as z from "zod";
import { GiveUp, RetryLater } from "../../errors.ts";
import type { PartProgress } from "../../message.ts";
import { splitText } from "../../text/split.ts";

/** Slack truncates at 40,000 characters and advises staying under 4,000 per message. */
export const SLACK_MAX_MESSAGE_CHARS = 4_000;
const POST_MESSAGE_METHOD = "chat.postMessage";
const REQUEST_TIMEOUT_MS = 10_000;
/** Used when a 429 carries no usable Retry-After. */
const DEFAULT_RETRY_AFTER_SECONDS = 1;
/** `ok:false` errors that the same request can never get past: retrying would only repeat them. */
const PERMANENT_ERRORS: ReadonlySet<string> = new Set([
  "channel_not_found",
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

const postMessageResponseSchema = z.looseObject({
  ok: z.boolean(),
  error: z.string().optional(),
  ts: z.string().optional(),
});

export interface PostSlackMessageArgs {
  apiBaseUrl: string;
  botToken: string;
  channel: string;
  threadTs?: string;
  text: string;
  fetch?: typeof fetch;
  /**
   * `from`: chunks an earlier, interrupted attempt posted, not posted again (splitting is deterministic, so the
   * caller must retry with the SAME text); `onPart` hears of each chunk posted, so the caller can keep its progress.
   */
  progress?: PartProgress;
}

/**
 * Posts `text` in order as one or more messages; returns the `ts` of each message posted by this call.
 * Never puts the text in an error or a log.
 */
export async function postSlackMessage(args: PostSlackMessageArgs): Promise<string[]> {
  const chunks = splitText(args.text, SLACK_MAX_MESSAGE_CHARS);
  const posted: string[] = [];
  for (let index = args.progress?.from ?? 0; index < chunks.length; index++) {
    posted.push(await postOne(args, escapeSlackText(chunks[index]!)));
    args.progress?.onPart(index);
  }
  return posted;
}

async function postOne(args: PostSlackMessageArgs, text: string): Promise<string> {
  const doFetch = args.fetch ?? fetch;
  const response = await doFetch(`${args.apiBaseUrl}/${POST_MESSAGE_METHOD}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${args.botToken}`, "Content-Type": "application/json; charset=utf-8" },
    body: JSON.stringify({ channel: args.channel, text, ...(args.threadTs ? { thread_ts: args.threadTs } : {}) }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if (response.status === 429) {
    await response.body?.cancel();
    throw new RetryLater(`Slack ${POST_MESSAGE_METHOD} rate limited`, retryAfterSeconds(response.headers));
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`Slack ${POST_MESSAGE_METHOD} answered HTTP ${response.status}`);
  }
  const parsed = postMessageResponseSchema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) throw new Error(`Slack ${POST_MESSAGE_METHOD} answered an unexpected body`);
  const { ok, error, ts } = parsed.data;
  if (!ok) {
    const code = error ?? "unknown_error";
    const message = `Slack ${POST_MESSAGE_METHOD} failed: ${code}`;
    throw PERMANENT_ERRORS.has(code) ? new GiveUp(message, code) : new Error(message);
  }
  if (!ts) throw new Error(`Slack ${POST_MESSAGE_METHOD} answered ok without a ts`);
  return ts;
}

function retryAfterSeconds(headers: Headers): number {
  const seconds = Number(headers.get("Retry-After"));
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : DEFAULT_RETRY_AFTER_SECONDS;
}

/**
 * Slack reads `<…>` as markup and asks senders to escape &, < and >. Model output is untrusted text: escaped,
 * it cannot ping `<!channel>`/`<!here>` or forge a link, and `a < b` still displays as written.
 */
export function escapeSlackText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
