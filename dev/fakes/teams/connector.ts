/**
 * @module
 * The Bot Connector REST API of the fake, as strict as the Connector ("Bot Framework REST API reference:
 * Conversations"; "Send and receive messages"; "Optimize your bot with rate limiting"):
 * - `POST {serviceUrl}v3/conversations/{id}/activities`: a `message` (text or attachments, `textFormat` one of plain,
 *   markdown, xml, at most 40 KB as UTF-16: 413 `MessageSizeTooBig`) or `typing`; a channel's id may name a reply chain
 *   (`;messageid=<root>`) that must exist; answers 201 `{id}`;
 * - `PUT …/activities/{activityId}`: replaces a message the bot sent in that conversation, never another's (its cards
 *   too: an update without attachments takes them away);
 * - attachments held to Teams' rules for cards (./card-rules.ts);
 * - the bot's token from the identity platform (./identity.ts) on every call (401 without it), an unknown conversation
 *   404 `ConversationNotFound`, one the bot was removed from 403 `BotNotInConversationRoster` ("Status codes from bot
 *   APIs"), and the per-conversation limits of a bot: 7 operations a second and 60 in thirty
 *   seconds, past them 429 with `Retry-After`;
 * - a `typing` or `message` activity with a `streaminfo` entity: Teams' streaming, held to its rules (./streams.ts).
 */
import type { RateLimiter } from "../rate-limit.ts";
import { readAttachments } from "./card-rules.ts";
import type { IdentityPlatform } from "./identity.ts";
import { streamActivity, streamInfoOf } from "./streams.ts";
import type { FakeActivity, World } from "./world.ts";

/** Where the fake's service URL puts the API, as Teams' regional service URLs do (`https://smba…/amer/`). */
export const SERVICE_PATH = "/amer/";
const ACTIVITIES = /^\/amer\/v3\/conversations\/([^/]+)\/activities(?:\/([^/]+))?$/;
const MAX_MESSAGE_BYTES = 40 * 1024;
const TEXT_FORMATS: ReadonlySet<string> = new Set(["plain", "markdown", "xml"]);
const LIMITS = [
  { limit: 7, windowMs: 1_000 },
  { limit: 60, windowMs: 30_000 },
];

export interface ConnectorAnswer {
  status: number;
  json: unknown;
  headers?: Record<string, string>;
}

export type ConnectorCall = {
  route: "send activity" | "update activity" | "send typing" | "stream update";
  conversation: string;
  activityId?: string;
  text?: string;
  textFormat?: string;
  replyToId?: string;
  streamType?: string;
  streamSequence?: number;
  /** When the fake took the call (its clock). */
  at?: number;
  /** The Connector's code for a streaming activity it refused or dropped. */
  refused?: string;
};

interface ConnectorDeps {
  world: World;
  identity: IdentityPlatform;
  limits: RateLimiter;
  rateLimits: () => boolean;
  bot: () => { id: string; name: string };
  record(call: ConnectorCall): void;
}

const error = (status: number, code: string, message: string): ConnectorAnswer => ({
  status,
  json: { error: { code, message } },
});

/** The conversation and activity a path names, or null when it is not the Connector's. */
export function connectorPath(method: string, pathname: string): { conversation: string; activityId?: string } | null {
  const match = ACTIVITIES.exec(pathname);
  if (!match || (method !== "POST" && method !== "PUT")) return null;
  if ((method === "PUT") !== (match[2] !== undefined)) return null;
  const conversation = decodeURIComponent(match[1]!);
  return match[2] ? { conversation, activityId: decodeURIComponent(match[2]) } : { conversation };
}

export function callConnector(
  deps: ConnectorDeps,
  request: { method: string; pathname: string; authorization: string | undefined; body: string },
): ConnectorAnswer {
  const target = connectorPath(request.method, request.pathname);
  if (!target) return error(404, "NotFound", "The requested resource was not found.");
  const [chat = "", root] = target.conversation.split(";messageid=");
  if (!deps.identity.authorized(request.authorization, chat))
    return { status: 401, json: { message: "Authorization has been denied for this request." } };
  const conversation = deps.world.conversations.get(chat);
  if (!conversation) return error(404, "ConversationNotFound", "Conversation not found.");
  if (conversation.removed) return error(403, "BotNotInConversationRoster", "The bot is not part of the roster.");
  if (root !== undefined && (conversation.type !== "channel" || !deps.world.activity(chat, root)?.id))
    return error(404, "ConversationNotFound", "Conversation not found.");
  let activity: Record<string, unknown>;
  try {
    activity = JSON.parse(request.body) as Record<string, unknown>;
  } catch {
    return error(400, "BadArgument", "The request body is not an activity.");
  }
  if (activity === null || typeof activity !== "object") return error(400, "BadArgument", "Missing activity.");
  if (deps.rateLimits()) {
    for (const rule of LIMITS) {
      const verdict = deps.limits.hit(`${chat}|${rule.windowMs}`, rule, "activities");
      if (!verdict.allowed)
        return {
          ...error(429, "TooManyRequests", "The bot sent too many messages in this conversation."),
          headers: { "Retry-After": String(Math.max(1, Math.ceil(verdict.resetAfterMs / 1000))) },
        };
    }
  }
  const stream = target.activityId ? null : streamInfoOf(activity);
  if (stream) return streamActivity(deps, conversation, activity, stream);
  if (activity.type === "typing" && !target.activityId) {
    deps.record({ route: "send typing", conversation: target.conversation });
    return { status: 201, json: {} };
  }
  if (activity.type !== "message") return error(400, "BadArgument", "Unknown activity type.");
  const text = typeof activity.text === "string" ? activity.text : "";
  const textFormat = typeof activity.textFormat === "string" ? activity.textFormat : undefined;
  if (!text.trim() && !Array.isArray(activity.attachments))
    return error(400, "BadArgument", "Activity text or attachments are required.");
  if (textFormat !== undefined && !TEXT_FORMATS.has(textFormat))
    return error(400, "BadArgument", "Unknown textFormat.");
  const attached = readAttachments(activity.attachments);
  if ("refused" in attached) return error(400, "BadArgument", attached.refused);
  if (request.body.length * 2 > MAX_MESSAGE_BYTES) return error(413, "MessageSizeTooBig", "Message size too big.");
  const replyToId = typeof activity.replyToId === "string" ? activity.replyToId : undefined;
  const revision = { at: Date.now(), text, ...(textFormat ? { textFormat } : {}) };
  if (target.activityId) {
    const existing = deps.world.activity(chat, target.activityId);
    if (!existing) return error(404, "ActivityNotFound", "Activity not found.");
    if (!existing.byBot) return error(403, "Forbidden", "The bot can only update its own activities.");
    existing.text = text;
    existing.cards = attached.cards;
    existing.revisions.push({ ...revision, method: "put" });
    deps.record({ route: "update activity", conversation: target.conversation, activityId: existing.id, text });
    return { status: 200, json: { id: existing.id } };
  }
  const posted: FakeActivity = deps.world.add({
    id: deps.world.nextId(),
    conversation: chat,
    ...(conversation.type === "channel" ? { root: root ?? "" } : {}),
    from: deps.bot(),
    text,
    byBot: true,
    ...(attached.cards.length ? { cards: attached.cards } : {}),
    ...(replyToId ? { replyToId } : {}),
    revisions: [{ ...revision, method: "post" }],
  });
  // A post at the top of a channel is the root of its own reply chain.
  if (posted.root === "") posted.root = posted.id;
  deps.record({
    route: "send activity",
    conversation: target.conversation,
    activityId: posted.id,
    text,
    ...(textFormat ? { textFormat } : {}),
    ...(replyToId ? { replyToId } : {}),
  });
  return { status: 201, json: { id: posted.id } };
}
