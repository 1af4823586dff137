/**
 * @module
 * What the guild events tell the bot. GUILD_CREATE (the bot joined, or the guild came back, or it is loaded after
 * READY) and GUILD_ROLE_CREATE/UPDATE carry the bot's managed role: the role whose `tags.bot_id` is the bot's user
 * id, which people mention as `<@&id>`. GUILD_DELETE means two things: the guild is unavailable (an outage:
 * `unavailable: true`, nothing to do), or the bot was removed from it (no `unavailable`): then everything kept for
 * the guild is to be deleted. Pure.
 */
import * as z from "../../../zod.ts";
import { describeIssues } from "../../../zod-issues.ts";
import { snowflake } from "../schema.ts";

const roleSchema = z.looseObject({ id: snowflake, tags: z.optional(z.looseObject({ bot_id: z.optional(snowflake) })) });
export const guildCreateSchema = z.looseObject({ id: snowflake, roles: z._default(z.array(roleSchema), []) });
export const roleEventSchema = z.looseObject({ guild_id: snowflake, role: roleSchema });
export const guildDeleteSchema = z.looseObject({ id: snowflake, unavailable: z.optional(z.boolean()) });

export type GuildChange =
  | { kind: "bot_role"; guildId: string; roleId: string }
  | { kind: "guild_removed"; guildId: string }
  | { kind: "ignored"; reason: string }
  | { kind: "invalid"; issues: string };

/** GUILD_CREATE: the bot's managed role in the guild, when the guild lists it. */
export function guildCreated(data: unknown, botUserId: string): GuildChange {
  const parsed = guildCreateSchema.safeParse(data);
  if (!parsed.success) return { kind: "invalid", issues: describeIssues(parsed.error) };
  const role = parsed.data.roles.find((r) => r.tags?.bot_id === botUserId);
  return role
    ? { kind: "bot_role", guildId: parsed.data.id, roleId: role.id }
    : { kind: "ignored", reason: "no_bot_role" };
}

/** GUILD_ROLE_CREATE / GUILD_ROLE_UPDATE: the bot's managed role, when it is the one. */
export function roleChanged(data: unknown, botUserId: string): GuildChange {
  const parsed = roleEventSchema.safeParse(data);
  if (!parsed.success) return { kind: "invalid", issues: describeIssues(parsed.error) };
  const { guild_id: guildId, role } = parsed.data;
  return role.tags?.bot_id === botUserId
    ? { kind: "bot_role", guildId, roleId: role.id }
    : { kind: "ignored", reason: "not_bot_role" };
}

/** GUILD_DELETE: the bot removed from the guild, or an outage. */
export function guildDeleted(data: unknown): GuildChange {
  const parsed = guildDeleteSchema.safeParse(data);
  if (!parsed.success) return { kind: "invalid", issues: describeIssues(parsed.error) };
  return parsed.data.unavailable
    ? { kind: "ignored", reason: "guild_unavailable" }
    : { kind: "guild_removed", guildId: parsed.data.id };
}
