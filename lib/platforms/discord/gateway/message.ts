/**
 * @module
 * A Gateway MESSAGE_CREATE → one platform-neutral InboundMessage, or the reason it needs no work (the bot's own
 * posts, system messages, empty content). Pure. Mentions become readable `@names` for the model. A mention of the
 * bot's managed role (`<@&id>`, the role Discord gives every bot in a guild; its id comes with GUILD_CREATE) is a
 * mention of the bot.
 */
import type { Addressing, InboundMessage } from "../../../message.ts";
import { describeIssues } from "../../../zod-issues.ts";
import { displayName, messageSchema, type DiscordMessage } from "../schema.ts";
import type { ChannelTarget } from "../target.ts";
import { messageFileRefs } from "../files.ts";

/** DEFAULT and REPLY are what people write; joins, pins, boosts and the like are not conversation. */
const USER_MESSAGE_TYPES: ReadonlySet<number> = new Set([0, 19]);
const REPLY_MESSAGE_TYPE = 19;
const REPLY_REFERENCE_TYPE = 0;
const USER_MENTION = /<@!?(\d+)>/g;
const ROLE_MENTION = /<@&(\d+)>/g;
const DM_TENANT_PREFIX = "dm:";

/** Who the bot is in the message's guild: its user, its name, and its managed role there when known. */
export interface GatewayBot {
  userId: string;
  name: string;
  roleId?: string;
}

export type GatewayMessageParsed = { kind: "message"; message: InboundMessage } | { kind: "ignored"; reason: string };

/**
 * A MESSAGE_CREATE's own id and the guild it was posted in (none for a DM), read before parsing: the guild to look
 * up the bot's role there, the id to name the message in a log line.
 */
export function messageIds(data: unknown): { id?: string; guildId?: string } {
  const { id, guild_id: guildId } = (data ?? {}) as { id?: unknown; guild_id?: unknown };
  return { ...(typeof id === "string" ? { id } : {}), ...(typeof guildId === "string" ? { guildId } : {}) };
}

export function parseGatewayMessage(
  data: unknown,
  bot: GatewayBot,
): GatewayMessageParsed | { kind: "invalid"; issues: string } {
  const parsed = messageSchema.safeParse(data);
  if (!parsed.success) return { kind: "invalid", issues: describeIssues(parsed.error) };
  const message = parsed.data;
  // The bot's own posts come back through the Gateway; interaction answers come as the application's webhook.
  if (message.author.id === bot.userId) return { kind: "ignored", reason: "own_message" };
  if (!USER_MESSAGE_TYPES.has(message.type)) return { kind: "ignored", reason: `message_type:${message.type}` };
  const files = messageFileRefs(message.attachments);
  // A picture without words is a message too: the answer reads the picture.
  if (!message.content.trim() && files.length === 0) return { kind: "ignored", reason: "no_text" };
  const inbound = toInboundMessage(message, bot);
  return { kind: "message", message: files.length ? { ...inbound, files } : inbound };
}

function toInboundMessage(message: DiscordMessage, bot: GatewayBot): InboundMessage {
  const mentionsRole = bot.roleId !== undefined && message.mention_roles.includes(bot.roleId);
  // The bot's role stands for the bot: the decider sees it mentioned, as for `<@bot>`.
  const mentions = [...new Set([...message.mentions.map((m) => m.id), ...(mentionsRole ? [bot.userId] : [])])];
  const replyToAuthorId = message.referenced_message?.author.id;
  const addressing = addressingOf(message, mentions, bot.userId);
  const reference = message.message_reference;
  // A reply to a message of this same channel; a forward or a reply across channels brings another place's words.
  const replyToId =
    message.type === REPLY_MESSAGE_TYPE &&
    reference?.type === REPLY_REFERENCE_TYPE &&
    (reference.channel_id ?? message.channel_id) === message.channel_id
      ? reference.message_id
      : undefined;
  return {
    key: {
      platform: "discord",
      tenant: message.guild_id ?? `${DM_TENANT_PREFIX}${message.author.id}`,
      channel: message.channel_id,
    },
    id: message.id,
    author: {
      id: message.author.id,
      name: displayName(message.author, message.member),
      isBot: Boolean(message.author.bot || message.webhook_id),
    },
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

/** The content with mention markup replaced by readable `@names` (the bot's, and its role's, by its name). */
export function readableContent(message: DiscordMessage, bot: GatewayBot): string {
  const names = new Map(message.mentions.map((m) => [m.id, m.username ?? m.id]));
  return message.content
    .replace(USER_MENTION, (_m, id: string) => `@${id === bot.userId ? bot.name : (names.get(id) ?? id)}`)
    .replace(ROLE_MENTION, (markup, id: string) => (id === bot.roleId ? `@${bot.name}` : markup));
}

function addressingOf(message: DiscordMessage, mentions: string[], botUserId: string): Addressing {
  if (!message.guild_id) return "dm";
  if (mentions.includes(botUserId)) return "mention";
  if (message.referenced_message?.author.id === botUserId) return "reply_to_bot";
  return "none";
}
