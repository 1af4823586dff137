/**
 * @module
 * The bot's permissions in a channel of the Discord REST fake, and the refusals Discord answers without them
 * (discord/discord-api-docs, topics/permissions.mdx and resources/message.mdx): without VIEW_CHANNEL nothing in the
 * channel is reachable (403 50001 Missing Access); reading a message, or replying to one, needs
 * READ_MESSAGE_HISTORY, and listing the channel's messages without it lists none; posting needs SEND_MESSAGES, in a
 * thread SEND_MESSAGES_IN_THREADS (403 50013 Missing Permissions). A test sets them per channel (`POST /__channel
 * {id, bot_permissions}`); by default the bot has what the README's invite grants.
 */
import { z } from "zod";

export const PERMISSION = {
  VIEW_CHANNEL: 1n << 10n,
  SEND_MESSAGES: 1n << 11n,
  READ_MESSAGE_HISTORY: 1n << 16n,
  SEND_MESSAGES_IN_THREADS: 1n << 38n,
} as const;

/** View Channels, Send Messages, Send Messages in Threads, Read Message History. */
export const DEFAULT_BOT_PERMISSIONS =
  PERMISSION.VIEW_CHANNEL |
  PERMISSION.SEND_MESSAGES |
  PERMISSION.SEND_MESSAGES_IN_THREADS |
  PERMISSION.READ_MESSAGE_HISTORY;

/** A permission bitfield as Discord writes one: a decimal string. */
export const channelPermissionsSchema = z.string().regex(/^\d+$/);

const MISSING_ACCESS = { status: 403, message: "Missing Access", code: 50001 } as const;
const MISSING_PERMISSIONS = { status: 403, message: "Missing Permissions", code: 50013 } as const;

/** Discord's error for a call that needs `needed` (VIEW_CHANNEL always) in a channel where the bot has `have`. */
export function missingPermission(
  have: bigint,
  ...needed: bigint[]
): typeof MISSING_ACCESS | typeof MISSING_PERMISSIONS | undefined {
  if ((have & PERMISSION.VIEW_CHANNEL) === 0n) return MISSING_ACCESS;
  return needed.every((p) => (have & p) === p) ? undefined : MISSING_PERMISSIONS;
}

/** A guild as a test describes it (`POST /__guild`, ./guild-routes.ts): its owner, its roles, its members. */
const snowflake = z.string().regex(/^\d+$/);
export const guildSchema = z.strictObject({
  id: snowflake,
  owner_id: snowflake.optional(),
  roles: z.array(z.strictObject({ id: snowflake, permissions: channelPermissionsSchema })).optional(),
  members: z.array(z.strictObject({ user_id: snowflake, roles: z.array(snowflake) })).optional(),
});
export type FakeGuild = z.output<typeof guildSchema>;
