/**
 * @module
 * Channel routes of the Discord REST fake (Bot token): create a message (`nonce` + `enforce_nonce`, `content` ≤
 * 2,000, `message_reference`), edit it (`PATCH /channels/{id}/messages/{id}`, only the bot's own), and the typing
 * indicator (`POST /channels/{id}/typing` → 204, recorded with its time). `GET /channels/{id}` answers the channel a
 * test described (`POST /__channel`), else a text channel without permission overwrites (everyone sees it).
 * `GET /channels/{id}/messages/{id}` answers a message of that channel: the bot's, or a person's a test put there
 * (`POST /__messages`); 10008 for any other.
 */
import { DISCORD_ERROR, refusedContent, sendDiscordError } from "./errors.ts";
import { DISCORD_FAKE_BOT } from "./messages.ts";
import { botMessage, type DiscordRoute, type RouteContext } from "./route.ts";

export function matchChannelRoute(ctx: RouteContext): DiscordRoute | undefined {
  const { method, path, body } = ctx;
  if (path[0] !== "channels" || !path[1]) return undefined;
  const channelId = path[1];
  const common = { resource: channelId, needsBot: true };
  if (method === "POST" && path[2] === "messages" && path.length === 3) {
    return {
      ...common,
      name: "channel_message",
      bucket: "createMessage",
      fields: { channelId, ...(body.nonce !== undefined ? { nonce: String(body.nonce) } : {}) },
      run(res) {
        if (refusedContent(res, body, { required: true })) return undefined;
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
        const stored = ctx.messages.get(messageId);
        if (!stored || stored.message.channel_id !== channelId) return void sendDiscordError(res, DISCORD_ERROR.unknownMessage);
        if (stored.message.author.id !== DISCORD_FAKE_BOT.userId) return void sendDiscordError(res, DISCORD_ERROR.notAuthor);
        if (refusedContent(res, body, { required: false })) return undefined;
        const content = typeof body.content === "string" ? body.content : undefined;
        const message = ctx.messages.edit(stored, content, "edit_message");
        ctx.record({ route: "edit_message", channelId, id: messageId, content: message.content, allowed_mentions: body.allowed_mentions });
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
        const stored = ctx.messages.get(messageId);
        if (!stored || stored.message.channel_id !== channelId) return void sendDiscordError(res, DISCORD_ERROR.unknownMessage);
        return { status: 200, body: stored.message };
      },
    };
  }
  if (method === "GET" && path.length === 2) {
    return {
      ...common,
      name: "get_channel",
      fields: { channelId },
      run: () => ({ status: 200, body: { id: channelId, type: 0, permission_overwrites: [], ...ctx.channels.get(channelId) } }),
    };
  }
  if (method === "POST" && path[2] === "typing" && path.length === 3) {
    return {
      ...common,
      name: "typing",
      bucket: "typing",
      fields: { channelId },
      run() {
        ctx.record({ route: "typing", channelId });
        return { status: 204 };
      },
    };
  }
  return undefined;
}
