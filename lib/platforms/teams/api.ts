/**
 * @module
 * One Bot Connector call (`{serviceUrl}/v3/conversations/{conversation id}/activities[/{activity id}]`, JSON, the
 * bot's token), made only to a service URL the token may go to (./service-url.ts), and its failures turned into what
 * the job flow acts on: PlatformRateLimited (429, with the Connector's Retry-After: "Optimize your bot with rate
 * limiting"), TeamsRefused, a GiveUp (a 4xx the same request never gets past: the bot is not in the conversation,
 * the activity is not the bot's, the message too large), Error (5xx, a lost answer: retry). A 401 forgets the token,
 * so that the retry exchanges the secret again. Errors carry the Connector's code (`ConversationNotFound`), never its
 * message or the request.
 */
import { GiveUp } from "../../errors.ts";
import * as z from "../../zod.ts";
import type { ReplyContext } from "../adapter.ts";
import { httpFailure } from "../optional-read.ts";
import { PlatformRateLimited } from "../rate-limited.ts";
import { serviceBase, serviceUrlAllowed } from "./service-url.ts";
import type { TeamsSettings } from "./settings.ts";
import type { TeamsTarget } from "./target.ts";
import { connectorToken, forgetConnectorToken } from "./token.ts";

const REQUEST_TIMEOUT_MS = 10_000;
/** The Connector's wait when its 429 names none. */
const DEFAULT_RETRY_AFTER_SECONDS = 1;

/** The Connector's error body (ErrorResponse): `error.code`, `error.message`. */
const errorSchema = z.looseObject({ error: z.looseObject({ code: z.optional(z.string()) }) });
const resourceSchema = z.looseObject({ id: z.optional(z.string()) });

export type TeamsContext = ReplyContext<TeamsSettings>;

/** The Connector refused the call for good. */
class TeamsRefused extends GiveUp {
  readonly status: number;
  readonly reason: string;
  constructor(what: string, status: number, reason: string) {
    super(`Teams ${what} failed: ${status} ${reason}`, `teams_${status}`);
    this.name = "TeamsRefused";
    this.status = status;
    this.reason = reason;
  }
}

/** Teams' streaming entity ("Stream bot messages"): which stream, what kind of update, its place in the stream. */
interface StreamInfo {
  type: "streaminfo";
  streamType: "informative" | "streaming" | "final";
  streamId?: string;
  streamSequence?: number;
}

/** An activity the bot sends (a message, an edit of one, typing, or an update of a stream). */
export interface OutgoingActivity {
  type: "message" | "typing";
  text?: string;
  textFormat?: "markdown";
  replyToId?: string;
  entities?: StreamInfo[];
  /** A card under the text (./controls.ts); an update without one takes the message's card away. */
  attachments?: { contentType: string; content: unknown }[];
}

/** The status and the Connector's code of a refusal, when `err` is one. */
export function teamsRefusal(err: unknown): { status: number; reason: string } | undefined {
  return err instanceof TeamsRefused ? { status: err.status, reason: err.reason } : undefined;
}

/**
 * Sends `activity` to the target's conversation (POST), or replaces activity `activityId` with it (PUT); answers the
 * id the Connector gives it.
 */
export async function callConnector(
  ctx: TeamsContext,
  what: string,
  target: TeamsTarget,
  activity: OutgoingActivity,
  activityId?: string,
): Promise<string | undefined> {
  if (!serviceUrlAllowed(ctx.config, target.serviceUrl))
    throw new GiveUp("the conversation's service URL is not one of the Bot Connector's", "teams_service_url");
  const tokenRequest = { config: ctx.config, secret: await ctx.token() };
  const path = `/v3/conversations/${encodeURIComponent(target.conversationId)}/activities`;
  const url = `${serviceBase(target.serviceUrl)}${path}${activityId ? `/${encodeURIComponent(activityId)}` : ""}`;
  const response = await ctx.fetch(url, {
    method: activityId ? "PUT" : "POST",
    headers: {
      Authorization: `Bearer ${await connectorToken({ ...tokenRequest, fetch: ctx.fetch, now: ctx.now })}`,
      "Content-Type": "application/json; charset=utf-8",
    },
    body: JSON.stringify(activityId ? { ...activity, id: activityId } : activity),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const body: unknown = await response.json().catch(() => undefined);
  if (response.ok) return resourceSchema.safeParse(body).data?.id ?? activityId;
  const code = errorSchema.safeParse(body).data?.error.code ?? "Unknown";
  if (response.status === 429) {
    const header = Number(response.headers.get("Retry-After"));
    throw new PlatformRateLimited(
      `Teams ${what} rate limited`,
      Number.isFinite(header) && header > 0 ? header : DEFAULT_RETRY_AFTER_SECONDS,
    );
  }
  if (response.status === 401) forgetConnectorToken(tokenRequest);
  if (response.status >= 400 && response.status < 500 && response.status !== 401 && response.status !== 408)
    throw new TeamsRefused(what, response.status, code);
  throw httpFailure(`Teams ${what} (${code})`, response.status);
}
