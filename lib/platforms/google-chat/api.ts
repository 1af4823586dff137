/**
 * @module
 * One Chat API call (`<base>/v1/...`, JSON, the app's bearer token for the scope the method needs), and Google's
 * failures turned into what the job flow acts on: PlatformRateLimited (429: Google asks for exponential backoff,
 * docs "Usage limits"; the waits grow 1, 2, 4 s within one call), ChatRefused, a GiveUp (a 4xx the same request
 * never gets past: the app is not in the space, the message is not the app's, the body is too large), Error (5xx,
 * a lost answer: retry). Errors carry Google's status name (`PERMISSION_DENIED`), never its message or the request.
 */
import { GiveUp } from "../../errors.ts";
import * as z from "../../zod.ts";
import type { ReplyContext } from "../adapter.ts";
import { httpFailure, PlatformAnswerError } from "../optional-read.ts";
import { PlatformRateLimited, waitingOutRateLimits } from "../rate-limited.ts";
import { accessToken, CHAT_BOT_SCOPE, forgetAccessToken } from "./service-account.ts";
import type { GoogleChatSettings } from "./settings.ts";

const REQUEST_TIMEOUT_MS = 10_000;
const FIRST_BACKOFF_SECONDS = 1;

/** Google's error body (google.rpc.Status in JSON): `code` the HTTP status, `status` its canonical name. */
const errorSchema = z.looseObject({
  error: z.looseObject({ code: z.optional(z.number()), status: z.optional(z.string()) }),
});

/** Google refused the call for good: `status` is the HTTP status, `reason` Google's canonical code. */
export class ChatRefused extends GiveUp {
  readonly status: number;
  readonly reason: string;
  constructor(what: string, status: number, reason: string) {
    super(`Google Chat ${what} failed: ${status} ${reason}`, `google_chat_${status}`);
    this.name = "ChatRefused";
    this.status = status;
    this.reason = reason;
  }
}

export type ChatContext = ReplyContext<GoogleChatSettings>;

export interface ChatRequest {
  method: "GET" | "POST" | "PATCH";
  /** After `/v1/`: `spaces/AAA/messages`. */
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
  scope?: string;
}

/** The app's token for `scope` (chat.bot unless said). */
export async function chatToken(ctx: ChatContext, scope = CHAT_BOT_SCOPE): Promise<string> {
  return accessToken({ ...(await tokenFor(ctx, scope)), fetch: ctx.fetch, now: ctx.now });
}

async function tokenFor(ctx: ChatContext, scope: string) {
  return { keyJson: await ctx.token(), tokenUrl: ctx.config.GOOGLE_OAUTH_TOKEN_URL, scope };
}

/** `<base>/v1/<path>?<query>`, the query's unset values left out. */
export function chatUrl(ctx: ChatContext, path: string, query: ChatRequest["query"] = {}): string {
  const params = new URLSearchParams(
    Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const search = params.size ? `?${params}` : "";
  return `${ctx.config.GOOGLE_CHAT_API_BASE_URL}/v1/${path}${search}`;
}

/** Makes the call once; resolves with the JSON body. */
export async function callChat(ctx: ChatContext, what: string, request: ChatRequest): Promise<unknown> {
  const response = await ctx.fetch(chatUrl(ctx, request.path, request.query), {
    method: request.method,
    headers: {
      Authorization: `Bearer ${await chatToken(ctx, request.scope)}`,
      ...(request.body !== undefined ? { "Content-Type": "application/json; charset=utf-8" } : {}),
    },
    ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const body: unknown = await response.json().catch(() => undefined);
  if (response.ok && body === undefined)
    throw new PlatformAnswerError(`Google Chat ${what} answered a body that is not JSON`, "not_json");
  if (response.ok) return body;
  const status = errorSchema.safeParse(body).data?.error.status ?? "UNKNOWN";
  if (response.status === 429) {
    const header = Number(response.headers.get("Retry-After"));
    throw new PlatformRateLimited(
      `Google Chat ${what} rate limited`,
      Number.isFinite(header) && header > 0 ? header : FIRST_BACKOFF_SECONDS,
    );
  }
  // 401: a token Google no longer takes (revoked early): forgotten, so that a retry exchanges the key again.
  if (response.status === 401) forgetAccessToken(await tokenFor(ctx, request.scope ?? CHAT_BOT_SCOPE));
  if (response.status >= 400 && response.status < 500 && response.status !== 401 && response.status !== 408)
    throw new ChatRefused(what, response.status, status);
  throw httpFailure(`Google Chat ${what} (${status})`, response.status);
}

/**
 * `call`, made again after each 429 with the wait doubled from one second (or as Google's Retry-After says), up
 * to the job's in-call maximum (../rate-limited.ts); past it the 429 goes back to QStash.
 */
export function withBackoff<T>(call: () => Promise<T>): Promise<T> {
  let wait = FIRST_BACKOFF_SECONDS;
  return waitingOutRateLimits(() =>
    call().catch((err: unknown) => {
      if (!(err instanceof PlatformRateLimited)) throw err;
      const seconds = Math.max(wait, err.retryAfterSeconds);
      wait *= 2;
      throw new PlatformRateLimited(err.message, seconds);
    }),
  );
}

/** True when Google refused the call with one of `statuses` (`NOT_FOUND`, …). */
export function refusedWith(err: unknown, ...statuses: string[]): err is ChatRefused {
  return err instanceof ChatRefused && statuses.includes(err.reason);
}
