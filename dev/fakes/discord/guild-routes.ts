/**
 * @module
 * Guild routes of the Discord REST fake (Bot token), what a bot reads to work out a member's permissions in a
 * channel (discord/discord-api-docs, resources/guild.mdx and topics/permissions.mdx): Get Guild (`GET /guilds/{id}`,
 * its `owner_id` and `roles`, each with its `permissions` bit set; the @everyone role's id is the guild's) and Get
 * Guild Member (`GET /guilds/{id}/members/{user}`, the member's `roles`; 404 10007 Unknown Member for someone not in
 * the guild). A test describes a guild with `POST /__guild {id, owner_id?, roles?: [{id, permissions}], members?:
 * [{user_id, roles}]}`; a guild no test described has an @everyone that may view channels, post and read history,
 * and everyone is its member without roles, as in a server made with Discord's defaults. Get Guild Channels
 * (`GET /guilds/{id}/channels`) lists the channels a test described with that `guild_id` (`POST /__channel`), never
 * a thread, as Discord's reference says.
 */
import { DISCORD_ERROR, sendDiscordError } from "./errors.ts";
import { DEFAULT_BOT_PERMISSIONS } from "./permissions.ts";
import type { DiscordRoute, RouteContext } from "./route.ts";

/** Announcement, public and private threads: not the guild's channels. */
const THREADS: ReadonlySet<unknown> = new Set([10, 11, 12]);

/** Who owns a guild no test described: nobody who writes in a test. */
const DEFAULT_OWNER = "1";

export function matchGuildRoute(ctx: RouteContext): DiscordRoute | undefined {
  const { method, path } = ctx;
  if (method !== "GET" || path[0] !== "guilds" || !path[1]) return undefined;
  const guildId = path[1];
  const described = ctx.guilds.get(guildId);
  const common = { resource: guildId, needsBot: true };
  if (path.length === 2) {
    return {
      ...common,
      name: "get_guild",
      fields: { guildId },
      run() {
        ctx.record({ route: "get_guild", guildId });
        return {
          status: 200,
          body: {
            id: guildId,
            name: `guild ${guildId}`,
            owner_id: described?.owner_id ?? DEFAULT_OWNER,
            roles: (described?.roles ?? [{ id: guildId, permissions: String(DEFAULT_BOT_PERMISSIONS) }]).map((r) => ({
              ...r,
              name: r.id === guildId ? "@everyone" : `role ${r.id}`,
              position: r.id === guildId ? 0 : 1,
              managed: false,
              mentionable: false,
            })),
          },
        };
      },
    };
  }
  if (path[2] === "channels" && path.length === 3) {
    return {
      ...common,
      name: "get_guild_channels",
      fields: { guildId },
      run() {
        ctx.record({ route: "get_guild_channels", guildId });
        const listed = [...ctx.channels.values()].filter((c) => c.guild_id === guildId && !THREADS.has(c.type));
        return {
          status: 200,
          body: listed.map((c) => ({ type: 0, name: `channel-${String(c.id)}`, permission_overwrites: [], ...c })),
        };
      },
    };
  }
  if (path[2] === "members" && path[3] && path.length === 4) {
    const userId = path[3];
    return {
      ...common,
      name: "get_member",
      fields: { guildId, userId },
      run(res) {
        const roles = described ? described.members?.find((m) => m.user_id === userId)?.roles : [];
        if (!roles) return void sendDiscordError(res, DISCORD_ERROR.unknownMember);
        ctx.record({ route: "get_member", guildId, id: userId });
        return {
          status: 200,
          body: {
            user: { id: userId, username: `user${userId}` },
            nick: null,
            roles,
            joined_at: new Date(0).toISOString(),
          },
        };
      },
    };
  }
  return undefined;
}
