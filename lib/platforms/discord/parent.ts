/**
 * @module
 * The message a Discord conversation is about: the message a reply answers (`GET /channels/{id}/messages/{id}` in
 * the reply's own channel), or, in a thread, its starter message. A thread started from a message has that
 * message's id and the message stays in the parent channel; a forum post's starter message is in the thread itself,
 * with the thread's id. Only the conversation's channel and its thread's parent channel are ever read.
 */
import type { ParentMessage } from "../../message.ts";
import type { ParentQuery, ReplyContext } from "../adapter.ts";
import type { DiscordSettings } from "./settings.ts";
import { readableContent } from "./gateway/message.ts";
import { DM_TENANT_PREFIX } from "./parse.ts";
import { DISCORD_ERROR, DiscordRefused, discordRequest } from "./rest.ts";
import { displayName, messageSchema } from "./schema.ts";
import { isThread, readChannel } from "./visibility.ts";
import { messageFileRefs } from "./files.ts";

export async function fetchDiscordParent(
  ctx: ReplyContext<DiscordSettings>,
  { place, replyToId, bot }: ParentQuery,
): Promise<ParentMessage | null> {
  if (replyToId) return readMessage(ctx, place.channel, replyToId, bot);
  if (place.tenant.startsWith(DM_TENANT_PREFIX)) return null;
  const channel = await readChannel(ctx, place.channel);
  if (!isThread(channel) || !channel.parent_id) return null;
  return (
    (await readMessage(ctx, channel.parent_id, place.channel, bot)) ??
    readMessage(ctx, place.channel, place.channel, bot)
  );
}

/** The message, or null when Discord knows no such message there. */
async function readMessage(
  ctx: ReplyContext<DiscordSettings>,
  channelId: string,
  messageId: string,
  bot: ParentQuery["bot"],
): Promise<ParentMessage | null> {
  let body: unknown;
  try {
    body = await discordRequest({
      apiBaseUrl: ctx.config.DISCORD_API_BASE_URL,
      method: "GET",
      path: `/channels/${channelId}/messages/${messageId}`,
      what: "read a message",
      botToken: await ctx.token(),
      fetch: ctx.fetch,
    });
  } catch (err) {
    if (err instanceof DiscordRefused && err.discordCode === DISCORD_ERROR.UNKNOWN_MESSAGE) return null;
    throw err;
  }
  const message = messageSchema.parse(body);
  const files = messageFileRefs(message.attachments);
  return {
    id: message.id,
    author: {
      id: message.author.id,
      name: displayName(message.author, message.member),
      isBot: Boolean(message.author.bot || message.webhook_id),
    },
    text: readableContent(message, bot),
    ts: Date.parse(message.timestamp),
    ...(files.length ? { files } : {}),
  };
}
