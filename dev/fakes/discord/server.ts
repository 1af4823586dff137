/**
 * @module
 * The Discord REST fake under `/api/v10`: each route (./channel-routes.ts, ./webhook-routes.ts, ./app-routes.ts,
 * ./guild-routes.ts, ./user-routes.ts) goes through bot authentication, the scripted faults and the rate-limit
 * buckets, then is carried out and answered with Discord's rate-limit headers. Control routes: ../control.ts and
 * `GET|POST /__config`
 * `{limits?: {enabled?, createMessage?, editMessage?, typing?, webhook?, global?: {limit, windowMs}}, nonceWindowMs?}`,
 * `GET /__messages?channel_id=&id=` (every message the bot made or a test put there, with the time of each
 * change), `POST /__messages` `{channel_id, content, author: {id, username, global_name?}, id?, timestamp?}` → the
 * message (a person's, as `GET /channels/{id}/messages/{id}` answers it: a thread's starter, a message replied
 * to), `POST /__channel`
 * `{id, type?, guild_id?, name?, parent_id?, permission_overwrites?, bot_permissions?}` (what `GET /channels/{id}`
 * and Get Guild Channels answer for that channel, and the bot's permissions in it: ./permissions.ts), `POST /__guild`
 * (a guild's owner, roles and members: ./guild-routes.ts), `GET /__stats` (`{ratelimited: {total, byBucket}}`),
 * `POST /__interactions {id, application_id, token, channel_id?, answer: {status, body}, answered_after_ms}` (an
 * interaction Discord sent and what the app answered: ./interaction-answers.ts sends it), `POST
 * /__interactions/age {token, ms}` (as if Discord had sent it `ms` earlier: its token expires 15 minutes after).
 */
import type { IncomingMessage } from "node:http";
import { z } from "zod";
import { readBody, sendJson, startHttpServer } from "../http.ts";
import { configRoutes, controlBody, createFakeControl } from "../control.ts";
import { RateLimiter } from "../rate-limit.ts";
import { matchAppRoute } from "./app-routes.ts";
import { DEFAULT_DISCORD_LIMITS, discordLimitsSchema, takeDiscordLimit } from "./buckets.ts";
import { matchChannelRoute } from "./channel-routes.ts";
import { matchGuildRoute } from "./guild-routes.ts";
import { matchUserRoute } from "./user-routes.ts";
import { DISCORD_ERROR, refuseAsDiscord, sendDiscordError } from "./errors.ts";
import { nextSnowflake } from "./ids.ts";
import { DiscordInteractions, interactionAgeSchema, interactionReportSchema } from "./interactions.ts";
import { DiscordMessages, type PostedChannelMessage } from "./messages.ts";
import { channelPermissionsSchema, DEFAULT_BOT_PERMISSIONS, type FakeGuild, guildSchema } from "./permissions.ts";
import type { DiscordSettings, RecordedDiscordCall, RouteContext } from "./route.ts";
import { matchWebhookRoute } from "./webhook-routes.ts";
import { FileStore } from "../files.ts";
import { originalMessage } from "./interaction-messages.ts";
import { discordFileRoutes, serveDiscordAttachment } from "./files.ts";

const API_PREFIX = "/api/v10";
/** Discord dedupes an enforced nonce "within a few minutes": two is the cautious reading. */
const DEFAULT_NONCE_WINDOW_MS = 120_000;

const channelSchema = z.looseObject({ id: z.string().min(1), bot_permissions: channelPermissionsSchema.optional() });
const personMessageSchema = z.strictObject({
  id: z.string().regex(/^\d+$/).optional(),
  channel_id: z.string().regex(/^\d+$/),
  content: z.string(),
  author: z.strictObject({
    id: z.string().regex(/^\d+$/),
    username: z.string().min(1),
    global_name: z.string().nullish(),
  }),
  timestamp: z.iso.datetime({ offset: true }).optional(),
  /** Files on it, as `POST /__attachments` made them (./files.ts). */
  attachments: z.array(z.object({}).passthrough()).optional(),
});

const settingsPatchSchema = z.strictObject({
  limits: discordLimitsSchema.partial().optional(),
  nonceWindowMs: z.number().int().positive().optional(),
});

export interface DiscordFakeOptions {
  port: number;
  host?: string;
  /** What `GET /gateway/bot` answers as the Gateway's URL (the fake Gateway's, in tests). */
  gatewayUrl?: string;
  /** Called for every channel message the bot posts, e.g. so the fake Gateway can dispatch it. */
  onChannelMessage?: (message: PostedChannelMessage) => void;
  settings?: z.input<typeof settingsPatchSchema>;
}

export interface RunningDiscordFake {
  /** Base for DISCORD_API_BASE_URL, e.g. http://127.0.0.1:8092/api/v10 */
  url: string;
  /** A message someone wrote over the fake Gateway: Discord keeps it, so listing the channel shows it. */
  rememberMessage(message: PostedChannelMessage): void;
  close(): Promise<void>;
}

export async function startDiscordFake(opts: DiscordFakeOptions): Promise<RunningDiscordFake> {
  const merge = (base: DiscordSettings, patch: z.output<typeof settingsPatchSchema>): DiscordSettings => ({
    limits: { ...base.limits, ...patch.limits },
    nonceWindowMs: patch.nonceWindowMs ?? base.nonceWindowMs,
  });
  const initial = merge(
    { limits: DEFAULT_DISCORD_LIMITS, nonceWindowMs: DEFAULT_NONCE_WINDOW_MS },
    settingsPatchSchema.parse(opts.settings ?? {}),
  );
  let settings = initial;
  const messages = new DiscordMessages();
  const interactions = new DiscordInteractions();
  const channels = new Map<string, Record<string, unknown>>();
  const guilds = new Map<string, FakeGuild>();
  const botPermissions = new Map<string, bigint>();
  /** The bot's DM channel with each user (Create DM answers the same one every time). */
  const dms = new Map<string, string>();
  const limiter = new RateLimiter();
  const nextId = nextSnowflake;
  const files = new FileStore();
  let origin = "";
  const control = createFakeControl<RecordedDiscordCall>({
    name: "discord",
    refuse: refuseAsDiscord,
    onReset() {
      settings = initial;
      messages.reset();
      interactions.reset();
      channels.clear();
      guilds.clear();
      botPermissions.clear();
      dms.clear();
      limiter.reset();
      files.reset();
    },
  });
  control.addRoutes(discordFileRoutes(files, nextId, () => origin));
  control.addRoutes({
    ...configRoutes(
      () => settings,
      settingsPatchSchema,
      (patch) => (settings = merge(settings, patch)),
    ),
    "GET /__messages": (_body, url) => {
      const channelId = url.searchParams.get("channel_id");
      const id = url.searchParams.get("id");
      return messages
        .all()
        .filter((m) => (!channelId || m.message.channel_id === channelId) && (!id || m.message.id === id));
    },
    "POST /__messages": (body) => {
      const { id, timestamp, ...fields } = controlBody(personMessageSchema, body);
      const message: PostedChannelMessage = {
        id: id ?? nextId(),
        timestamp: timestamp ?? new Date().toISOString(),
        edited_timestamp: null,
        ...fields,
      };
      return messages.create(message, "person_message").message;
    },
    "POST /__channel": (body) => {
      const { bot_permissions: permissions, ...channel } = controlBody(channelSchema, body);
      channels.set(channel.id, channel);
      if (permissions !== undefined) botPermissions.set(channel.id, BigInt(permissions));
      return channel;
    },
    "POST /__guild": (body) => {
      const guild = controlBody(guildSchema, body);
      guilds.set(guild.id, guild);
      return guild;
    },
    "POST /__interactions": (body) => {
      const report = controlBody(interactionReportSchema, body);
      const original = interactions.report(report);
      if (!original) return { acknowledged: false };
      const message = originalMessage(messages, report, original, nextId);
      return { acknowledged: true, ...(message ? { original: message } : {}) };
    },
    "POST /__interactions/age": (body) => {
      const { token, ms } = controlBody(interactionAgeSchema, body);
      return { ok: interactions.age(token, ms) };
    },
    "GET /__stats": () => {
      const refused = limiter.refusals();
      return { ratelimited: { total: refused.total, byBucket: refused.byLabel } };
    },
  });

  async function handleApi(
    req: IncomingMessage,
    res: Parameters<typeof sendJson>[0],
    path: string[],
    query: URLSearchParams,
  ): Promise<void> {
    const botToken = /^Bot\s+(\S+)$/.exec(req.headers.authorization ?? "")?.[1];
    const ctx: RouteContext = {
      method: req.method ?? "GET",
      path,
      query,
      body: await readJson(req),
      ...(botToken ? { botToken } : {}),
      messages,
      interactions,
      channels,
      guilds,
      permissionsIn: (channelId) => botPermissions.get(channelId) ?? DEFAULT_BOT_PERMISSIONS,
      nextId,
      dmChannel(userId) {
        const known = dms.get(userId) ?? nextId();
        dms.set(userId, known);
        return known;
      },
      settings: () => settings,
      record: (call) => control.record({ ...call, at: Date.now() }),
      ...(opts.onChannelMessage ? { onChannelMessage: opts.onChannelMessage } : {}),
    };
    const route =
      matchWebhookRoute(ctx) ??
      matchChannelRoute(ctx) ??
      matchGuildRoute(ctx) ??
      matchUserRoute(ctx) ??
      matchAppRoute(ctx, opts.gatewayUrl);
    if (!route) return sendDiscordError(res, DISCORD_ERROR.notFound);
    if (route.needsBot && !botToken) return sendDiscordError(res, DISCORD_ERROR.unauthorized);
    const admission = await control.admit({ route: route.name, ...route.fields }, res);
    if (!admission) return;
    const limitHeaders = route.bucket
      ? takeDiscordLimit(res, limiter, settings.limits, {
          bucket: route.bucket,
          resource: route.resource,
          ...(botToken ? { botToken } : {}),
        })
      : {};
    if (!limitHeaders) return;
    const outcome = await route.run(res);
    if (!outcome) return;
    admission.reply(() => {
      if (outcome.body === undefined) res.writeHead(outcome.status, limitHeaders).end();
      else sendJson(res, outcome.status, outcome.body, limitHeaders);
    });
    outcome.after?.();
  }

  const server = await startHttpServer({
    port: opts.port,
    ...(opts.host ? { host: opts.host } : {}),
    async handle(req, res, url) {
      if (await control.handle(req, res, url)) return;
      if (serveDiscordAttachment(req, res, url, files)) return;
      if (!url.pathname.startsWith(`${API_PREFIX}/`)) return sendDiscordError(res, DISCORD_ERROR.notFound);
      await handleApi(
        req,
        res,
        url.pathname
          .slice(API_PREFIX.length + 1)
          .split("/")
          .map(decodeURIComponent),
        url.searchParams,
      );
    },
  });
  origin = server.origin;
  return {
    url: `${server.origin}${API_PREFIX}`,
    rememberMessage: (message) => void messages.create(message, "person_message"),
    close: server.close,
  };
}

/** The body as an object; a JSON array (command registration) comes back as `{__array}`. */
async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await readBody(req);
  if (!raw) return {};
  const parsed: unknown = JSON.parse(raw);
  if (Array.isArray(parsed)) return { __array: parsed };
  return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
}
