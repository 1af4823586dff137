/**
 * @module
 * Channel routes of the Discord REST fake (Bot token): create a message (`nonce` + `enforce_nonce`, `content` ≤
 * 2,000, `message_reference`, `components` as ./components.ts takes them), edit it (`PATCH
 * /channels/{id}/messages/{id}`, only the bot's own; an ephemeral message is never listed), and the typing
 * indicator (`POST /channels/{id}/typing` → 204, recorded with its time). `GET /channels/{id}` answers the channel a
 * test described (`POST /__channel`), else a text channel without permission overwrites (everyone sees it).
 * `GET /channels/{id}/messages/{id}` answers a message of that channel: the bot's, or a person's a test put there
 * (`POST /__messages`); 10008 for any other. `GET /channels/{id}/messages?limit&before|after|around` lists them,
 * newest first. Each needs the bot's permissions in the channel, as Discord checks them (./permissions.ts).
 */
import { keepComponents, refusedComponents } from "./components.ts";
import { DISCORD_ERROR, refusedContent, sendDiscordError, sendInvalidFormBody } from "./errors.ts";
import { DISCORD_FAKE_BOT } from "./messages.ts";
import { missingPermission, PERMISSION } from "./permissions.ts";
import { botMessage, type DiscordRoute, type RouteContext } from "./route.ts";

/** Discord's thread channel types: posting there takes SEND_MESSAGES_IN_THREADS, not SEND_MESSAGES. */
const THREAD_TYPES: ReadonlySet<unknown> = new Set([10, 11, 12]);
const LIST_LIMIT = { min: 1, max: 100, default: 50 } as const;
const EPHEMERAL = 64;

export function matchChannelRoute(ctx: RouteContext): DiscordRoute | undefined {
  const { method, path, body } = ctx;
  if (path[0] !== "channels" || !path[1]) return undefined;
  const channelId = path[1];
  const common = { resource: channelId, needsBot: true };
  /** Answers Discord's refusal when the bot lacks a permission the call needs here; true when it did. */
  const refusedHere = (res: Parameters<typeof sendDiscordError>[0], ...needed: bigint[]) => {
    const missing = missingPermission(ctx.permissionsIn(channelId), ...needed);
    if (missing) sendDiscordError(res, missing);
    return missing !== undefined;
  };
  if (method === "POST" && path[2] === "messages" && path.length === 3) {
    return {
      ...common,
      name: "channel_message",
      bucket: "createMessage",
      fields: { channelId, ...(body.nonce !== undefined ? { nonce: String(body.nonce) } : {}) },
      run(res) {
        const send = THREAD_TYPES.has(ctx.channels.get(channelId)?.type)
          ? PERMISSION.SEND_MESSAGES_IN_THREADS
          : PERMISSION.SEND_MESSAGES;
        const replying = body.message_reference ? [PERMISSION.READ_MESSAGE_HISTORY] : [];
        if (refusedHere(res, send, ...replying) || refusedContent(res, body, { required: true })) return undefined;
        if (refusedComponents(res, body)) return undefined;
        const author = ctx.botToken ?? "";
        const nonce = typeof body.nonce === "string" || typeof body.nonce === "number" ? body.nonce : undefined;
        if (body.enforce_nonce === true && nonce !== undefined) {
          const seen = ctx.messages.byNonce(author, nonce, ctx.settings().nonceWindowMs);
          if (seen) return { status: 200, body: seen };
        }
        const message = botMessage(ctx.nextId(), channelId, body.content as string, {
          ...(nonce !== undefined ? { nonce } : {}),
          ...(body.message_reference ? { message_reference: body.message_reference } : {}),
        });
        keepComponents(message, body);
        ctx.messages.create(message, "channel_message");
        if (nonce !== undefined) ctx.messages.rememberNonce(author, nonce, message.id);
        ctx.record({
          route: "channel_message",
          channelId,
          id: message.id,
          content: message.content,
          ...(nonce !== undefined ? { nonce } : {}),
          allowed_mentions: body.allowed_mentions,
          message_reference: body.message_reference,
        });
        return { status: 200, body: message, after: () => ctx.onChannelMessage?.(message) };
      },
    };
  }
  if (method === "PATCH" && path[2] === "messages" && path[3] && path.length === 4) {
    const messageId = path[3];
    return {
      ...common,
      name: "edit_message",
      bucket: "editMessage",
      fields: { channelId, messageId },
      run(res) {
        if (refusedHere(res)) return undefined;
        const stored = ctx.messages.get(messageId);
        if (!stored || stored.message.channel_id !== channelId)
          return void sendDiscordError(res, DISCORD_ERROR.unknownMessage);
        if (stored.message.author.id !== DISCORD_FAKE_BOT.userId)
          return void sendDiscordError(res, DISCORD_ERROR.notAuthor);
        if (refusedContent(res, body, { required: false }) || refusedComponents(res, body)) return undefined;
        const content = typeof body.content === "string" ? body.content : undefined;
        const message = ctx.messages.edit(stored, content, "edit_message");
        keepComponents(message, body);
        ctx.record({
          route: "edit_message",
          channelId,
          id: messageId,
          content: message.content,
          allowed_mentions: body.allowed_mentions,
          ...(body.components !== undefined ? { components: body.components } : {}),
        });
        return { status: 200, body: message };
      },
    };
  }
  if (method === "GET" && path[2] === "messages" && path[3] && path.length === 4) {
    const messageId = path[3];
    return {
      ...common,
      name: "get_message",
      fields: { channelId, messageId },
      run(res) {
        if (refusedHere(res, PERMISSION.READ_MESSAGE_HISTORY)) return undefined;
        const stored = ctx.messages.get(messageId);
        if (!stored || stored.message.channel_id !== channelId)
          return void sendDiscordError(res, DISCORD_ERROR.unknownMessage);
        return { status: 200, body: stored.message };
      },
    };
  }
  if (method === "GET" && path[2] === "messages" && path.length === 3) {
    return {
      ...common,
      name: "list_messages",
      fields: { channelId },
      run: (res) => (refusedHere(res) ? undefined : listMessages(ctx, channelId, res)),
    };
  }
  if (method === "GET" && path.length === 2) {
    return {
      ...common,
      name: "get_channel",
      fields: { channelId },
      run: (res) =>
        refusedHere(res)
          ? undefined
          : {
              status: 200,
              body: { id: channelId, type: 0, permission_overwrites: [], ...ctx.channels.get(channelId) },
            },
    };
  }
  if (method === "POST" && path[2] === "typing" && path.length === 3) {
    return {
      ...common,
      name: "typing",
      bucket: "typing",
      fields: { channelId },
      run(res) {
        if (refusedHere(res)) return undefined;
        ctx.record({ route: "typing", channelId });
        return { status: 204 };
      },
    };
  }
  return undefined;
}

/**
 * Get Channel Messages: newest first, `limit` 1–100 (50), at most one of `before`, `after`, `around`; none without
 * READ_MESSAGE_HISTORY.
 */
function listMessages(ctx: RouteContext, channelId: string, res: Parameters<typeof sendDiscordError>[0]) {
  const query = ctx.query;
  const limit = Number(query.get("limit") ?? LIST_LIMIT.default);
  if (!Number.isInteger(limit) || limit < LIST_LIMIT.min || limit > LIST_LIMIT.max) {
    return void sendInvalidFormBody(
      res,
      "limit",
      "NUMBER_TYPE_MAX",
      `int value should be between ${LIST_LIMIT.min} and ${LIST_LIMIT.max}.`,
    );
  }
  const anchors = (["before", "after", "around"] as const).filter((k) => query.has(k));
  if (anchors.length > 1)
    return void sendInvalidFormBody(res, anchors[1]!, "ONE_OF", "Only one of before, after, around may be given.");
  // Counted (the backfill bench and tests ask how often a channel is read), whatever it lists.
  ctx.record({ route: "list_messages", channelId });
  if ((ctx.permissionsIn(channelId) & PERMISSION.READ_MESSAGE_HISTORY) === 0n) return { status: 200, body: [] };
  const byId = (a: { id: string }, b: { id: string }) => (BigInt(a.id) < BigInt(b.id) ? 1 : -1);
  const all = ctx.messages
    .all()
    .map((m) => m.message)
    // An ephemeral message (flag 64) is its one reader's alone: Discord never lists it.
    .filter((m) => m.channel_id === channelId && ((m.flags ?? 0) & EPHEMERAL) === 0)
    .sort(byId);
  const anchor = anchors[0] && BigInt(query.get(anchors[0])!);
  if (anchor === undefined || anchors[0] === undefined) return { status: 200, body: all.slice(0, limit) };
  if (anchors[0] === "before") return { status: 200, body: all.filter((m) => BigInt(m.id) < anchor).slice(0, limit) };
  if (anchors[0] === "after") return { status: 200, body: all.filter((m) => BigInt(m.id) > anchor).slice(-limit) };
  const newer = all.filter((m) => BigInt(m.id) >= anchor).slice(-Math.ceil(limit / 2));
  const older = all.filter((m) => BigInt(m.id) < anchor).slice(0, Math.floor(limit / 2));
  return { status: 200, body: [...newer, ...older] };
}
