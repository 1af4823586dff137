/**
 * @module
 * One call to Slack's Web API with the bot token, and Slack's failures turned into what the job flow acts on:
 * PlatformRateLimited (429 with Retry-After), GiveUp (an `ok:false` the same request can never get past), Error
 * (retry). Never puts message text into an error. Every method Parley calls takes its arguments as Slack's own SDK
 * types
 * them (`SlackMethods`, from @slack/web-api): a misspelt or missing argument fails `npm run typecheck`. Only the
 * SDK's types are used (a dev dependency, erased from the Worker's bundle).
 */
import type * as Slack from "@slack/web-api";
import * as z from "../../zod.ts";
import { GiveUp } from "../../errors.ts";
import { httpFailure, PlatformAnswerError } from "../optional-read.ts";
import { PlatformRateLimited } from "../rate-limited.ts";

const slackResponseSchema = z.looseObject({ ok: z.boolean(), error: z.optional(z.string()) });
// Every method's answer has these; chat.postMessage's type stands for them (WebAPICallResult omits `error`).
// biome-ignore lint/correctness/noUnusedVariables: a compile-time check against the SDK's type
type ResponseAgrees = SlackAgrees<
  SlackDisagreements<z.output<typeof slackResponseSchema>, Slack.ChatPostMessageResponse>
>;

const REQUEST_TIMEOUT_MS = 10_000;
/** What a body that does not parse as JSON reads as. */
const NOT_JSON = Symbol("not JSON");
const JSON_TYPE = "application/json; charset=utf-8";
const FORM_TYPE = "application/x-www-form-urlencoded";
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

/** The methods Parley calls, with their arguments as @slack/web-api declares them (the token goes in a header). */
export interface SlackMethods {
  "chat.postMessage": Slack.ChatPostMessageArguments;
  "chat.update": Slack.ChatUpdateArguments;
  "chat.postEphemeral": Slack.ChatPostEphemeralArguments;
  "chat.startStream": Slack.ChatStartStreamArguments;
  "chat.appendStream": Slack.ChatAppendStreamArguments;
  "chat.stopStream": Slack.ChatStopStreamArguments;
  "reactions.add": Slack.ReactionsAddArguments;
  "reactions.remove": Slack.ReactionsRemoveArguments;
  "assistant.threads.setStatus": Slack.AssistantThreadsSetStatusArguments;
  "assistant.threads.setSuggestedPrompts": Slack.AssistantThreadsSetSuggestedPromptsArguments;
  "assistant.threads.setTitle": Slack.AssistantThreadsSetTitleArguments;
  "conversations.history": Slack.ConversationsHistoryArguments;
  "conversations.replies": Slack.ConversationsRepliesArguments;
  "auth.test": Slack.AuthTestArguments;
  "users.info": Slack.UsersInfoArguments;
  "conversations.info": Slack.ConversationsInfoArguments;
  "users.conversations": Slack.UsersConversationsArguments;
  "conversations.open": Slack.ConversationsOpenArguments;
  /** The client's credentials go by HTTP Basic, as Slack's docs prefer, not in the form. */
  "oauth.v2.access": Omit<Slack.OAuthV2AccessArguments, "client_id" | "client_secret">;
}

/** The fields a zod schema reads: its output without a loose object's index signature, less `Skip`. */
type ReadFields<T, Skip> = { [K in keyof T as string extends K ? never : K extends Skip ? never : K]-?: T[K] };

/**
 * `never` while every field `Ours` (a schema's output) reads, but `Skip`, is a field of Slack's own type `Theirs`,
 * and, where both are plain values, of a type that agrees with the SDK's; else the fields that disagree, named. A
 * schema file asserts it with `SlackAgrees<…>` so that `npm run typecheck` fails on a misread field.
 */
export type SlackDisagreements<Ours, Theirs, Skip extends string = never> = {
  [K in keyof ReadFields<Ours, Skip>]: K extends keyof Theirs
    ? NonNullable<ReadFields<Ours, Skip>[K]> extends string | number | boolean
      ? Overlap<NonNullable<ReadFields<Ours, Skip>[K]>, NonNullable<Theirs[K]>> extends true
        ? never
        : `${K & string}: Slack's SDK types it otherwise`
      : never
    : `${K & string}: not a field of Slack's SDK type`;
}[keyof ReadFields<Ours, Skip>];

/**
 * One type is the other's narrowing (our schema may check more strictly than the SDK declares: `"bot"` of a string).
 */
type Overlap<A, B> = [A] extends [B] ? true : [B] extends [A] ? true : false;

/** Compiles only when `Disagreements` is `never` (see SlackDisagreements). */
export type SlackAgrees<Disagreements extends never> = Disagreements;

/** How the arguments go: JSON, or a form (objects JSON-encoded, as Slack's own clients send them). */
export type SlackEncoding = "json" | "form";

/**
 * Calls `method` with `args`: resolves with the `ok:true` body; 429 → PlatformRateLimited, a permanent error →
 * GiveUp, else Error. Reads (history, replies, auth.test) and oauth.v2.access go as forms, which every method takes.
 */
export function callSlack<M extends keyof SlackMethods>(
  call: SlackCallArgs | SlackClientCallArgs,
  method: M,
  args: SlackMethods[M],
  encoding: SlackEncoding = "json",
): Promise<Record<string, unknown>> {
  if (encoding === "json") return post(call, method, JSON.stringify(args), JSON_TYPE);
  const form = Object.entries(args ?? {}).flatMap(([key, value]): [string, string][] =>
    value === undefined ? [] : [[key, typeof value === "object" ? JSON.stringify(value) : String(value)]],
  );
  return post(call, method, new URLSearchParams(form).toString(), FORM_TYPE);
}

async function post(
  args: SlackCallArgs | SlackClientCallArgs,
  method: string,
  body: string,
  contentType: string,
): Promise<Record<string, unknown>> {
  const doFetch = args.fetch ?? fetch;
  const response = await doFetch(`${args.apiBaseUrl}/${method}`, {
    method: "POST",
    headers: {
      Authorization: "botToken" in args ? `Bearer ${args.botToken}` : args.authorization,
      "Content-Type": contentType,
    },
    body,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if (response.status === 429) {
    await response.body?.cancel();
    throw new PlatformRateLimited(`Slack ${method} rate limited`, retryAfterSeconds(response.headers));
  }
  // Slack answers an unknown method (streaming on an older workspace) with 404 and an `ok:false` body.
  if (!response.ok && response.status !== 404) {
    await response.body?.cancel();
    throw httpFailure(`Slack ${method}`, response.status);
  }
  const json: unknown = await response.json().catch(() => NOT_JSON);
  if (json === NOT_JSON) throw new PlatformAnswerError(`Slack ${method} answered a body that is not JSON`, "not_json");
  const parsed = slackResponseSchema.safeParse(json);
  if (!parsed.success) throw new PlatformAnswerError(`Slack ${method} answered an unexpected body`, "unexpected_shape");
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
