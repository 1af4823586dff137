/**
 * @module
 * A Gateway MESSAGE_CREATE → one platform-neutral InboundMessage, or the reason it needs no work (the bot's own
 * posts, system messages, empty content). Pure. Mentions become readable `@names` for the model.
 */
import type { Addressing, InboundMessage } from "../../../message.ts";
import { describeIssues } from "../../../zod-issues.ts";
import { displayName, messageSchema, type DiscordMessage } from "../schema.ts";
import type { ChannelTarget } from "../target.ts";

/** DEFAULT and REPLY are what people write; joins, pins, boosts and the like are not conversation. */
const USER_MESSAGE_TYPES: ReadonlySet<number> = new Set([0, 19]);
const REPLY_MESSAGE_TYPE = 19;
const REPLY_REFERENCE_TYPE = 0;
const USER_MENTION = /<@!?(\d+)>/g;
const DM_TENANT_PREFIX = "dm:";

export type GatewayMessageParsed = { kind: "message"; message: InboundMessage } | { kind: "ignored"; reason: string };

export function parseGatewayMessage(data: unknown, bot: { userId: string; name: string }): GatewayMessageParsed | { kind: "invalid"; issues: string } {
  const parsed = messageSchema.safeParse(data);
  if (!parsed.success) return { kind: "invalid", issues: describeIssues(parsed.error) };
  const message = parsed.data;
  // The bot's own posts come back through the Gateway; interaction answers come as the application's webhook.
  if (message.author.id === bot.userId) return { kind: "ignored", reason: "own_message" };
  if (!USER_MESSAGE_TYPES.has(message.type)) return { kind: "ignored", reason: `message_type:${message.type}` };
  if (!message.content.trim()) return { kind: "ignored", reason: "no_text" };
  return { kind: "message", message: toInboundMessage(message, bot) };
}

function toInboundMessage(message: DiscordMessage, bot: { userId: string; name: string }): InboundMessage {
  const mentions = [...new Set(message.mentions.map((m) => m.id))];
  const replyToAuthorId = message.referenced_message?.author.id;
  const addressing = addressingOf(message, mentions, bot.userId);
  const reference = message.message_reference;
  // A reply to a message of this same channel; a forward or a reply across channels brings another place's words.
  const replyToId =
    message.type === REPLY_MESSAGE_TYPE && reference?.type === REPLY_REFERENCE_TYPE && (reference.channel_id ?? message.channel_id) === message.channel_id
      ? reference.message_id
      : undefined;
  return {
    key: { platform: "discord", tenant: message.guild_id ?? `${DM_TENANT_PREFIX}${message.author.id}`, channel: message.channel_id },
    id: message.id,
    author: { id: message.author.id, name: displayName(message.author, message.member), isBot: Boolean(message.author.bot || message.webhook_id) },
    text: readableContent(message, bot),
    ts: Date.parse(message.timestamp),
    addressing,
    mentions,
    ...(replyToAuthorId ? { replyToAuthorId } : {}),
    ...(replyToId ? { replyToId } : {}),
    replyTarget: {
      platform: "discord",
      kind: "channel",
      channelId: message.channel_id,
      // A direct address gets a visible reply to its message; a follow-up in the flow of talk does not.
      ...(addressing !== "none" ? { replyToMessageId: message.id } : {}),
    } satisfies ChannelTarget,
  };
}

/** The content with mention markup replaced by readable `@names` (the bot's by its name). */
export function readableContent(message: DiscordMessage, bot: { userId: string; name: string }): string {
  const names = new Map(message.mentions.map((m) => [m.id, m.username ?? m.id]));
  return message.content.replace(USER_MENTION, (_m, id: string) => `@${id === bot.userId ? bot.name : (names.get(id) ?? id)}`);
}

function addressingOf(message: DiscordMessage, mentions: string[], botUserId: string): Addressing {
  if (!message.guild_id) return "dm";
  if (mentions.includes(botUserId)) return "mention";
  if (message.referenced_message?.author.id === botUserId) return "reply_to_bot";
  return "none";
}
