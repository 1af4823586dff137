/**
 * @module
 * One call to Discord's REST API, with Discord's failures turned into what the job flow acts on:
 * PlatformRateLimited (429, JSON or not), GiveUp (the request can never succeed: expired token, unknown channel,
 * missing access), Error (5xx and the like: retry). Never puts a token or message text into an error.
 */
import type {
  RESTPatchAPIChannelMessageJSONBody,
  RESTPatchAPIInteractionOriginalResponseJSONBody,
  RESTPostAPIChannelMessageJSONBody,
  RESTPostAPICurrentUserCreateDMChannelJSONBody,
  RESTPostAPIInteractionFollowupJSONBody,
  RESTPutAPIApplicationCommandsJSONBody,
} from "discord-api-types/v10";
import * as z from "../../zod.ts";
import { GiveUp } from "../../errors.ts";
import { httpFailure, PlatformAnswerError } from "../optional-read.ts";
import { PlatformRateLimited } from "../rate-limited.ts";

const REQUEST_TIMEOUT_MS = 10_000;
/** Discord asks every client to identify itself as `DiscordBot ($url, $version)`. */
const USER_AGENT = "DiscordBot (https://github.com/parley, 1)";
/** A 429 from Cloudflare in front of Discord (error 1015) may carry neither JSON nor Retry-After. */
const DEFAULT_RETRY_AFTER_SECONDS = 5;

/** Discord's JSON error codes the same request can never get past. */
export const DISCORD_ERROR = {
  UNKNOWN_CHANNEL: 10003,
  UNKNOWN_MESSAGE: 10008,
  UNKNOWN_WEBHOOK: 10015,
  UNKNOWN_INTERACTION: 10062,
  MISSING_ACCESS: 50001,
  MISSING_PERMISSIONS: 50013,
  INVALID_WEBHOOK_TOKEN: 50027,
} as const;

/**
 * Every body Parley sends, as discord-api-types defines it: a field Discord does not know fails the typecheck. Each
 * call site also states its own with `satisfies` (create or edit a channel message, edit `@original`, post a
 * follow-up, overwrite the commands, open a DM).
 */
type DiscordRequestBody =
  | RESTPostAPIChannelMessageJSONBody
  | RESTPatchAPIChannelMessageJSONBody
  | RESTPatchAPIInteractionOriginalResponseJSONBody
  | RESTPostAPIInteractionFollowupJSONBody
  | RESTPostAPICurrentUserCreateDMChannelJSONBody
  | RESTPutAPIApplicationCommandsJSONBody;

const errorBodySchema = z.looseObject({ code: z.optional(z.number()), message: z.optional(z.string()) });
const rateLimitBodySchema = z.looseObject({
  retry_after: z.number().check(z.nonnegative()),
  global: z.optional(z.boolean()),
});

export interface DiscordRequest {
  apiBaseUrl: string;
  method: "GET" | "POST" | "PATCH" | "PUT";
  /** Path under the API base, starting with `/`. Tokens in it never reach an error message. */
  path: string;
  /** What to call the request in errors and logs, e.g. "edit original response". */
  what: string;
  body?: DiscordRequestBody;
  botToken?: string;
  fetch?: typeof fetch;
}

/** Thrown as a GiveUp when Discord says the request is wrong for good; `status`/`discordCode` tell why. */
export class DiscordRefused extends GiveUp {
  readonly status: number;
  readonly discordCode: number | undefined;
  constructor(what: string, status: number, discordCode: number | undefined) {
    super(
      `Discord refused to ${what}: HTTP ${status}${discordCode ? ` code ${discordCode}` : ""}`,
      `discord_${discordCode ?? status}`,
    );
    this.name = "DiscordRefused";
    this.status = status;
    this.discordCode = discordCode;
  }
}

/** Sends the request; resolves with the parsed JSON body (undefined for 204). */
export async function discordRequest(req: DiscordRequest): Promise<unknown> {
  const headers: Record<string, string> = { "User-Agent": USER_AGENT };
  if (req.body !== undefined) headers["Content-Type"] = "application/json";
  if (req.botToken) headers.Authorization = `Bot ${req.botToken}`;
  const response = await (req.fetch ?? fetch)(`${req.apiBaseUrl}${req.path}`, {
    method: req.method,
    headers,
    ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  const json = parseJson(text);
  if (response.status === 429) {
    throw new PlatformRateLimited(`Discord rate limited: ${req.what}`, retryAfterSeconds(response.headers, json));
  }
  if (response.status >= 400 && response.status < 500) {
    throw new DiscordRefused(req.what, response.status, errorBodySchema.safeParse(json).data?.code);
  }
  if (!response.ok) throw httpFailure(`Discord (${req.what})`, response.status);
  if (text && json === undefined)
    throw new PlatformAnswerError(`Discord answered a body that is not JSON: ${req.what}`, "not_json");
  return json;
}

/** The JSON `retry_after` (float seconds) when there is one, else the Retry-After header, else a default. */
function retryAfterSeconds(headers: Headers, json: unknown): number {
  const fromBody = rateLimitBodySchema.safeParse(json);
  if (fromBody.success) return Math.max(fromBody.data.retry_after, 0.001);
  const fromHeader = Number(headers.get("Retry-After"));
  return Number.isFinite(fromHeader) && fromHeader > 0 ? fromHeader : DEFAULT_RETRY_AFTER_SECONDS;
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
