/**
 * @module
 * A Discord interaction → PING, or one platform-neutral InboundMessage for `/ask` and the "Ask <bot> about this"
 * message command, a press of one of the bot's buttons (./component.ts), or the reason it needs no work. Pure: no
 * API call.
 */
import { InteractionType } from "discord-interactions";
import type { InboundMessage, Visibility } from "../../message.ts";
import { describeIssues } from "../../zod-issues.ts";
import {
  ASK_COMMAND,
  CATCHUP_COMMAND,
  catchUpRequestText,
  COMMAND_TYPE,
  FORGET_COMMAND,
  FORGET_REQUEST_TEXT,
  HOURS_OPTION,
  QUESTION_OPTION,
} from "./commands.ts";
import {
  commandDataSchema,
  displayName,
  interactionSchema,
  snowflakeTime,
  type DiscordCommandData,
  type DiscordInteraction,
  type DiscordUser,
} from "./schema.ts";
import { PARLEY_FORGET, parleyWords } from "./parley.ts";
import type { InteractionTarget } from "./target.ts";
import { type ComponentParsed, parseDiscordComponent } from "./component.ts";

/** An interaction token may be used for follow-ups for 15 minutes. */
export const INTERACTION_TOKEN_LIFETIME_MS = 15 * 60 * 1000;
/** Outside a guild there is no guild id: the tenant is the person, so DMs never share a conversation key space. */
export const DM_TENANT_PREFIX = "dm:";
/** Discord's channel types that tell who reads a place outside a server channel's permissions. */
const CHANNEL = { DM: 1, GROUP_DM: 3, PRIVATE_THREAD: 12 } as const;
/** Discord's interaction context of the bot's own DM (2, PRIVATE_CHANNEL, is a group DM or a DM between people). */
const BOT_DM_CONTEXT = 1;

export type DiscordInteractionParsed =
  | { kind: "ping" }
  | Extract<ComponentParsed, { kind: "control" }>
  | { kind: "message"; message: InboundMessage; applicationId: string }
  | { kind: "unsupported"; reason: string }
  | { kind: "invalid"; issues: string };

export function parseDiscordInteraction(body: unknown, opts: { now: number }): DiscordInteractionParsed {
  const parsed = interactionSchema.safeParse(body);
  if (!parsed.success) return { kind: "invalid", issues: describeIssues(parsed.error) };
  const interaction = parsed.data;
  if (interaction.type === InteractionType.PING) return { kind: "ping" };
  if (interaction.type === InteractionType.MESSAGE_COMPONENT)
    return parseDiscordComponent(interaction, (userId) => interaction.guild_id ?? `${DM_TENANT_PREFIX}${userId}`);
  if (interaction.type !== InteractionType.APPLICATION_COMMAND) {
    return { kind: "unsupported", reason: `interaction_type:${interaction.type}` };
  }
  const data = commandDataSchema.safeParse(interaction.data);
  if (!data.success) return { kind: "invalid", issues: describeIssues(data.error, "data.") };
  const user = interaction.member?.user ?? interaction.user;
  if (!user) return { kind: "invalid", issues: "member.user/user: missing" };
  if (!interaction.application_id) return { kind: "invalid", issues: "application_id: missing" };
  if (!interaction.channel_id) return { kind: "invalid", issues: "channel_id: missing" };

  const text = questionOf(data.data);
  if (text.kind !== "question") return text;
  const message = toInboundMessage(
    interaction,
    interaction.application_id,
    interaction.channel_id,
    user,
    text.text,
    opts.now,
  );
  return { kind: "message", message, applicationId: interaction.application_id };
}

/** The question a command asks, with a message command's target quoted as its context. */
function questionOf(data: DiscordCommandData): { kind: "question"; text: string } | DiscordInteractionParsed {
  if (data.type === COMMAND_TYPE.CHAT_INPUT && data.name === ASK_COMMAND) {
    const question = data.options?.find((o) => o.name === QUESTION_OPTION)?.value;
    if (typeof question !== "string" || !question.trim())
      return { kind: "invalid", issues: "data.options.question: missing" };
    return { kind: "question", text: question.trim() };
  }
  if (data.type === COMMAND_TYPE.CHAT_INPUT && data.name === FORGET_COMMAND)
    return { kind: "question", text: FORGET_REQUEST_TEXT };
  // `/parley forget` is /forget; the route answers the other subcommands itself (functions/discord.ts).
  if (parleyWords(data) === PARLEY_FORGET) return { kind: "question", text: FORGET_REQUEST_TEXT };
  if (data.type === COMMAND_TYPE.CHAT_INPUT && data.name === CATCHUP_COMMAND) {
    const hours = data.options?.find((o) => o.name === HOURS_OPTION)?.value;
    return {
      kind: "question",
      text: catchUpRequestText(typeof hours === "number" && Number.isInteger(hours) && hours > 0 ? hours : undefined),
    };
  }
  // Routed by type, not by name: the name carries BOT_NAME, which may change before the commands are re-registered.
  if (data.type === COMMAND_TYPE.MESSAGE) {
    const target = data.target_id ? data.resolved?.messages?.[data.target_id] : undefined;
    if (!target) return { kind: "invalid", issues: "data.resolved.messages[target_id]: missing" };
    const quoted = target.content.trim() ? target.content.trim().replace(/^/gm, "> ") : "> (no text)";
    return {
      kind: "question",
      text: `What can you tell me about this message from ${displayName(target.author, target.member)}?\n${quoted}`,
    };
  }
  return { kind: "unsupported", reason: `command:${data.name}` };
}

function toInboundMessage(
  interaction: DiscordInteraction,
  applicationId: string,
  channelId: string,
  user: DiscordUser,
  text: string,
  now: number,
): InboundMessage {
  return {
    key: { platform: "discord", tenant: interaction.guild_id ?? `${DM_TENANT_PREFIX}${user.id}`, channel: channelId },
    id: interaction.id,
    author: { id: user.id, name: displayName(user, interaction.member), isBot: Boolean(user.bot) },
    text,
    ts: snowflakeTime(interaction.id),
    addressing: "command",
    mentions: [],
    replyTarget: {
      platform: "discord",
      kind: "interaction",
      applicationId,
      token: interaction.token,
      expiresAt: now + INTERACTION_TOKEN_LIFETIME_MS,
    } satisfies InteractionTarget,
    ...visibilityOf(interaction),
    ...historyOf(interaction),
  };
}

const ADMINISTRATOR = 1n << 3n;
const READ_MESSAGE_HISTORY = 1n << 16n;

/**
 * A server member who may not read the channel's earlier messages (no Read Message History there, as the
 * interaction's `member.permissions` says, overwrites included): the bot reads none for them, though it can.
 */
function historyOf(interaction: DiscordInteraction): { historyHidden?: string } {
  const permissions = interaction.member?.permissions;
  if (!interaction.guild_id || permissions === undefined) return {};
  const held = BigInt(permissions);
  return (held & (ADMINISTRATOR | READ_MESSAGE_HISTORY)) === 0n ? { historyHidden: "READ_MESSAGE_HISTORY" } : {};
}

/**
 * Who reads where the command was used, when the interaction tells. A server channel's readers take a REST lookup,
 * which the job makes (./visibility.ts); a private thread is `private`. Outside a server only the bot's own DM is
 * `dm`: a group DM, or a DM between people where a user-installed app is used (context 2), has other readers, and
 * so has a place the interaction does not name (counted as `private`, never shown elsewhere).
 */
function visibilityOf(interaction: DiscordInteraction): { visibility?: Visibility } {
  if (interaction.guild_id)
    return interaction.channel?.type === CHANNEL.PRIVATE_THREAD ? { visibility: "private" } : {};
  const botDm =
    interaction.context !== undefined
      ? interaction.context === BOT_DM_CONTEXT
      : interaction.channel?.type === CHANNEL.DM;
  return { visibility: botDm ? "dm" : "private" };
}
