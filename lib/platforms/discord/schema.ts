/**
 * @module
 * zod schemas for the Discord payloads Parley reads: interactions (HTTP) and messages (interaction `resolved`
 * data and Gateway MESSAGE_CREATE). Loose objects: Discord adds fields without notice; only what we read is checked.
 */
import * as z from "../../zod.ts";

/** Discord ids are 64-bit snowflakes sent as decimal strings. */
export const snowflake = z.string().check(z.regex(/^\d{1,20}$/, "not a snowflake"));

const userSchema = z.looseObject({
  id: snowflake,
  username: z.string(),
  global_name: z.nullish(z.string()),
  bot: z.optional(z.boolean()),
});

const memberSchema = z.looseObject({
  user: z.optional(userSchema),
  nick: z.nullish(z.string()),
  /** In an interaction: the member's permissions in its channel, overwrites included (a decimal bit set). */
  permissions: z.optional(z.string().check(z.regex(/^\d+$/))),
});

export const messageSchema = z.looseObject({
  id: snowflake,
  channel_id: snowflake,
  guild_id: z.optional(snowflake),
  author: userSchema,
  member: z.optional(memberSchema),
  /** 0 DEFAULT, 19 REPLY; other types are system messages (joins, pins...). */
  type: z._default(z.number().check(z.int()), 0),
  content: z.string(),
  /** Files on the message, each read on its own (./files.ts). */
  attachments: z._default(z.array(z.unknown()), []),
  timestamp: z.string(),
  /** Set on messages posted by a webhook (including interaction follow-ups): never a person. */
  webhook_id: z.optional(snowflake),
  mentions: z._default(z.array(z.looseObject({ id: snowflake, username: z.optional(z.string()) })), []),
  /** Roles the message mentions (`<@&id>`): the bot's managed role among them addresses the bot. */
  mention_roles: z._default(z.array(snowflake), []),
  /** What the message points at: type 0 the message it replies to, type 1 a message it forwards (from anywhere). */
  message_reference: z.optional(
    z.looseObject({
      type: z._default(z.number().check(z.int()), 0),
      message_id: z.optional(snowflake),
      channel_id: z.optional(snowflake),
    }),
  ),
  /** The message this one replies to (type 19 replies), when Discord could resolve it. */
  referenced_message: z.nullish(z.looseObject({ id: snowflake, author: userSchema })),
});

const commandOptionSchema = z.looseObject({
  name: z.string(),
  type: z.number().check(z.int()),
  value: z.optional(z.union([z.string(), z.number(), z.boolean()])),
});

export const commandDataSchema = z.looseObject({
  id: snowflake,
  name: z.string(),
  /** The command's type; Discord's default for a command is 1 (CHAT_INPUT). */
  type: z._default(z.number().check(z.int()), 1),
  options: z.optional(z.array(commandOptionSchema)),
  target_id: z.optional(snowflake),
  resolved: z.optional(z.looseObject({ messages: z.optional(z.record(z.string(), messageSchema)) })),
});

export const interactionSchema = z.looseObject({
  id: snowflake,
  /** Discord sends it with every interaction; only a PING is answered without it (nothing there names the bot). */
  application_id: z.optional(snowflake),
  type: z.number().check(z.int()),
  token: z.string().check(z.minLength(1)),
  data: z.optional(z.unknown()),
  guild_id: z.optional(snowflake),
  channel_id: z.optional(snowflake),
  /** The channel it was used in, partially: its type tells a private thread, a DM, a group DM. */
  channel: z.optional(z.looseObject({ type: z.number().check(z.int()) })),
  /** Where it was used: 0 a server, 1 the bot's own DM, 2 a group DM or a DM between people (a user-installed app). */
  context: z.optional(z.number().check(z.int())),
  /** In a guild the invoking user comes inside `member`; in a DM as `user`. */
  member: z.optional(memberSchema),
  user: z.optional(userSchema),
});

export type DiscordUser = z.infer<typeof userSchema>;
export type DiscordMember = z.infer<typeof memberSchema>;
export type DiscordMessage = z.infer<typeof messageSchema>;
export type DiscordInteraction = z.infer<typeof interactionSchema>;
export type DiscordCommandData = z.infer<typeof commandDataSchema>;

/** Discord's epoch (2015-01-01) in milliseconds: a snowflake's top 42 bits count from it. */
const DISCORD_EPOCH_MS = 1_420_070_400_000n;

/** When a snowflake was created, in milliseconds since the Unix epoch. */
export function snowflakeTime(id: string): number {
  return Number((BigInt(id) >> 22n) + DISCORD_EPOCH_MS);
}

/** What people see as the name: the server nickname, else the display name, else the username. */
export function displayName(user: DiscordUser, member?: DiscordMember): string {
  return member?.nick || user.global_name || user.username;
}
