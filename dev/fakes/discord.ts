/**
 * @module
 * A Discord REST API stand-in for tests and `npm run dev`, under `/api/v10` like the real one: interaction
 * webhooks (edit `@original`, follow-ups), channel messages (Bot token, `enforce_nonce`), the bulk overwrite of
 * application commands, `GET /gateway/bot`, and `GET /channels/{id}` (a text channel everyone sees, unless a test
 * described it with `PUT /__channels/{id}` `{type?, parent_id?, permission_overwrites?}`). It records what people would see; `/__calls`, `/__fail`,
 * `/__reset` (see ./http.ts) let tests read it and script failures: `{route, status: 429, retryAfter}` answers
 * Discord's JSON 429, `error: "cloudflare"` a non-JSON one, any other `error` is a Discord JSON error code.
 * Standalone: `node dev/fakes/discord.ts` (DISCORD_FAKE_PORT, default 8092).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createFakeControl, readBody, sendJson, startHttpServer, type FailureRule } from "./http.ts";
import { serveStandalone } from "../serve-standalone.ts";

export const DEFAULT_DISCORD_FAKE_PORT = 8092;
const API_PREFIX = "/api/v10";
const CHANNELS_CONTROL_PATH = "/__channels/";
/** The bot the fake posts as: its user id is its application id, as for every bot made since 2019. */
export const DISCORD_FAKE_BOT = { userId: "100000000000000001", applicationId: "100000000000000001", username: "Parley" };
const MAX_CONTENT = 2_000;
const DISCORD_EPOCH_MS = 1_420_070_400_000n;
const ERROR = { EMPTY_MESSAGE: 50006, INVALID_FORM_BODY: 50035, UNAUTHORIZED: 0 } as const;
const IDENTIFY_BUDGET = 1_000;

export type DiscordRoute = "edit_original" | "followup" | "channel_message" | "register_commands" | "get_channel";

/** One accepted call: a message as people would see it, or a command registration. */
export interface RecordedDiscordCall extends Record<string, unknown> {
  route: DiscordRoute;
  id?: string;
  applicationId?: string;
  token?: string;
  channelId?: string;
  guildId?: string;
  content?: string;
  allowed_mentions?: unknown;
  message_reference?: unknown;
  commands?: unknown[];
}

/** A message the bot posted in a channel, as the Gateway would echo it back in MESSAGE_CREATE. */
export interface PostedChannelMessage {
  id: string;
  channel_id: string;
  content: string;
  timestamp: string;
  author: { id: string; username: string; bot: true };
  message_reference?: unknown;
}

export interface DiscordFakeOptions {
  port: number;
  host?: string;
  /** What `GET /gateway/bot` answers as the Gateway's URL (the fake Gateway's, in tests). */
  gatewayUrl?: string;
  /** Called for every channel message the bot posts, e.g. so the fake Gateway can dispatch it. */
  onChannelMessage?: (message: PostedChannelMessage) => void;
}

export interface RunningDiscordFake {
  /** Base for DISCORD_API_BASE_URL, e.g. http://127.0.0.1:8092/api/v10 */
  url: string;
  close(): Promise<void>;
}

export async function startDiscordFake(opts: DiscordFakeOptions): Promise<RunningDiscordFake> {
  const control = createFakeControl<RecordedDiscordCall>();
  const nextId = snowflakes();
  /** `@original` keeps its id across edits: one message per interaction token. */
  const originals = new Map<string, string>();
  /** channel + nonce → the message that nonce created, for `enforce_nonce`. */
  const byNonce = new Map<string, PostedChannelMessage>();
  /** Channels a test described; any other id is a plain text channel without permission overwrites. */
  const channels = new Map<string, Record<string, unknown>>();

  async function handleApi(req: IncomingMessage, res: ServerResponse, path: string[]): Promise<void> {
    const method = req.method ?? "GET";
    const body = await readJson(req);
    const botToken = /^Bot\s+(\S+)$/.exec(req.headers.authorization ?? "")?.[1];
    const needsBot = () => (botToken ? false : (sendJson(res, 401, { message: "401: Unauthorized", code: ERROR.UNAUTHORIZED }), true));

    if (path[0] === "webhooks" && path.length >= 3) {
      const [, applicationId, token] = path as [string, string, string];
      const isEdit = method === "PATCH" && path[3] === "messages" && path[4] === "@original" && path.length === 5;
      const isFollowup = method === "POST" && path.length === 3;
      if (!isEdit && !isFollowup) return sendJson(res, 404, { message: "404: Not Found", code: 0 });
      const call: RecordedDiscordCall = { route: isEdit ? "edit_original" : "followup", applicationId, token };
      if (failed(res, control.takeFailure(call))) return;
      if (invalidContent(res, body.content)) return;
      const id = isEdit ? (originals.get(token) ?? nextId()) : nextId();
      if (isEdit) originals.set(token, id);
      control.record({ ...call, id, content: body.content as string, allowed_mentions: body.allowed_mentions });
      return sendJson(res, 200, messageObject(id, "0", body.content as string, { webhook_id: applicationId }));
    }
    if (method === "POST" && path[0] === "channels" && path[2] === "messages" && path.length === 3) {
      if (needsBot()) return;
      const channelId = path[1]!;
      const call: RecordedDiscordCall = { route: "channel_message", channelId };
      if (failed(res, control.takeFailure(call))) return;
      if (invalidContent(res, body.content)) return;
      const nonceKey = body.enforce_nonce && body.nonce !== undefined ? `${channelId}:${String(body.nonce)}` : undefined;
      const seen = nonceKey ? byNonce.get(nonceKey) : undefined;
      if (seen) return sendJson(res, 200, seen);
      const message: PostedChannelMessage = {
        ...messageObject(nextId(), channelId, body.content as string),
        ...(body.message_reference ? { message_reference: body.message_reference } : {}),
      };
      if (nonceKey) byNonce.set(nonceKey, message);
      control.record({ ...call, id: message.id, content: message.content, allowed_mentions: body.allowed_mentions, message_reference: body.message_reference });
      sendJson(res, 200, message);
      opts.onChannelMessage?.(message);
      return;
    }
    if (method === "PUT" && path[0] === "applications" && path.at(-1) === "commands") {
      if (needsBot()) return;
      const guildId = path[2] === "guilds" ? path[3] : undefined;
      const call: RecordedDiscordCall = { route: "register_commands", applicationId: path[1]!, ...(guildId ? { guildId } : {}) };
      if (failed(res, control.takeFailure(call))) return;
      if (!Array.isArray(body.__array)) return sendJson(res, 400, { message: "Invalid Form Body", code: ERROR.INVALID_FORM_BODY });
      const commands = (body.__array as Record<string, unknown>[]).map((c) => ({ ...c, id: nextId(), application_id: path[1], version: nextId() }));
      control.record({ ...call, commands });
      return sendJson(res, 200, commands);
    }
    if (method === "GET" && path[0] === "channels" && path.length === 2) {
      if (needsBot()) return;
      if (failed(res, control.takeFailure({ route: "get_channel", channelId: path[1]! }))) return;
      return sendJson(res, 200, { id: path[1], type: 0, permission_overwrites: [], ...channels.get(path[1]!) });
    }
    if (method === "GET" && path.join("/") === "gateway/bot") {
      if (needsBot()) return;
      return sendJson(res, 200, {
        url: opts.gatewayUrl ?? "wss://gateway.discord.gg",
        shards: 1,
        session_start_limit: { total: IDENTIFY_BUDGET, remaining: IDENTIFY_BUDGET, reset_after: 86_400_000, max_concurrency: 1 },
      });
    }
    sendJson(res, 404, { message: "404: Not Found", code: 0 });
  }

  function messageObject(id: string, channelId: string, content: string, extra: Record<string, unknown> = {}): PostedChannelMessage {
    return {
      id,
      channel_id: channelId,
      content,
      timestamp: new Date().toISOString(),
      author: { id: DISCORD_FAKE_BOT.userId, username: DISCORD_FAKE_BOT.username, bot: true },
      ...extra,
    };
  }

  const server = await startHttpServer({
    port: opts.port,
    ...(opts.host ? { host: opts.host } : {}),
    async handle(req, res, url) {
      if (req.method === "PUT" && url.pathname.startsWith(CHANNELS_CONTROL_PATH)) {
        channels.set(decodeURIComponent(url.pathname.slice(CHANNELS_CONTROL_PATH.length)), await readJson(req));
        return sendJson(res, 200, { ok: true });
      }
      if (await control.handle(req, res, url)) return;
      if (!url.pathname.startsWith(`${API_PREFIX}/`)) return sendJson(res, 404, { message: "404: Not Found", code: 0 });
      await handleApi(req, res, url.pathname.slice(API_PREFIX.length + 1).split("/").map(decodeURIComponent));
    },
  });
  return { url: `${server.origin}${API_PREFIX}`, close: server.close };
}

/** The body as an object; a JSON array (command registration) comes back as `{__array}`. */
async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await readBody(req);
  if (!raw) return {};
  const parsed: unknown = JSON.parse(raw);
  if (Array.isArray(parsed)) return { __array: parsed };
  return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
}

function invalidContent(res: ServerResponse, content: unknown): boolean {
  if (typeof content !== "string" || !content.trim()) {
    sendJson(res, 400, { message: "Cannot send an empty message", code: ERROR.EMPTY_MESSAGE });
    return true;
  }
  if (content.length > MAX_CONTENT) {
    sendJson(res, 400, { message: "Invalid Form Body", code: ERROR.INVALID_FORM_BODY, errors: { content: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH" }] } } });
    return true;
  }
  return false;
}

/** Answers a scripted failure the way Discord (or Cloudflare in front of it) would; false when there is none. */
function failed(res: ServerResponse, rule: FailureRule | undefined): boolean {
  if (!rule) return false;
  const status = rule.status ?? 500;
  if (status === 429 && rule.error === "cloudflare") {
    res.writeHead(429, { "Content-Type": "text/html", ...(rule.retryAfter ? { "Retry-After": String(rule.retryAfter) } : {}) });
    res.end("<html><body>error code: 1015</body></html>");
  } else if (status === 429) {
    const retryAfter = rule.retryAfter ?? 1;
    sendJson(res, 429, { message: "You are being rate limited.", retry_after: retryAfter, global: false }, { "Retry-After": String(Math.ceil(retryAfter)) });
  } else {
    sendJson(res, status, { message: `${status}: scripted failure`, code: Number(rule.error ?? 0) || 0 });
  }
  return true;
}

/** Increasing snowflakes: the creation time in the top bits, a counter below. */
function snowflakes(): () => string {
  let counter = 0n;
  return () => {
    counter = (counter + 1n) % 4096n;
    return String(((BigInt(Date.now()) - DISCORD_EPOCH_MS) << 22n) | counter);
  };
}

if (import.meta.main) {
  serveStandalone("discord_fake", () => startDiscordFake({ port: Number(process.env.DISCORD_FAKE_PORT ?? DEFAULT_DISCORD_FAKE_PORT) }));
}
