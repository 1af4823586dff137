/**
 * @module
 * What a server member who wrote over the Gateway may not read in a channel: the bot reads history with its own
 * permissions, so for a mention (which, unlike an interaction, carries no `member.permissions`) the job works out the
 * asker's from the guild's roles and the channel's overwrites, as Discord documents it (discord/discord-api-docs,
 * topics/permissions.mdx "Permission Hierarchy"): the owner may do everything; else @everyone's permissions with the
 * member's roles', everything with Administrator; then the channel's overwrites: @everyone's deny and allow, the
 * member's roles' denies and allows together, the member's own. A thread takes its parent channel's. Three reads
 * at once (Get Guild Member, Get Guild, Get Channel; a thread's parent a fourth after them), none cached: a role
 * changed a minute ago counts. Without View Channel and Read Message History nothing is read for them
 * (lib/platforms/replier.ts).
 */
import * as z from "../../zod.ts";
import type { ConversationKey } from "../../message.ts";
import type { ReplyContext } from "../adapter.ts";
import { DiscordRefused, discordRequest } from "./rest.ts";
import { snowflake } from "./schema.ts";
import type { DiscordSettings } from "./settings.ts";
import { type DiscordChannel, isThread, readChannel } from "./visibility.ts";

const ADMINISTRATOR = 1n << 3n;
const VIEW_CHANNEL = 1n << 10n;
const READ_MESSAGE_HISTORY = 1n << 16n;
const ALL = (1n << 64n) - 1n;
const OVERWRITE = { ROLE: 0, MEMBER: 1 } as const;

const bits = z.string().check(z.regex(/^\d+$/));
const memberSchema = z.looseObject({ roles: z.array(snowflake) });
const guildSchema = z.looseObject({
  owner_id: snowflake,
  roles: z.array(z.looseObject({ id: snowflake, permissions: bits })),
});
type Guild = z.output<typeof guildSchema>;

/** The permission `asker` lacks to read `place`'s history (VIEW_CHANNEL first), or null when they may. */
export async function discordAskerLacks(
  ctx: ReplyContext<DiscordSettings>,
  place: ConversationKey,
  asker: string,
): Promise<"VIEW_CHANNEL" | "READ_MESSAGE_HISTORY" | null> {
  const guildId = place.tenant;
  // The three reads at once: the answer waits for the slowest, not for their sum.
  const [member, guildBody, channel] = await Promise.all([
    get(ctx, `/guilds/${guildId}/members/${asker}`, "read a server member").then(
      (body) => memberSchema.parse(body),
      (err: unknown) => {
        // 10007 Unknown Member: they left the server since they wrote; they read nothing there now.
        if (err instanceof DiscordRefused && err.status === 404) return null;
        throw err;
      },
    ),
    get(ctx, `/guilds/${guildId}`, "read a server"),
    readChannel(ctx, place.channel),
  ]);
  if (member === null) return "VIEW_CHANNEL";
  const { roles } = member;
  const guild = guildSchema.parse(guildBody);
  const overwritten = isThread(channel) && channel.parent_id ? await readChannel(ctx, channel.parent_id) : channel;
  const held = permissionsIn(guild, guildId, { id: asker, roles }, overwritten);
  if ((held & VIEW_CHANNEL) === 0n) return "VIEW_CHANNEL";
  return (held & READ_MESSAGE_HISTORY) === 0n ? "READ_MESSAGE_HISTORY" : null;
}

/** Discord's compute_permissions, for a member (`id`, role ids) of `guild` in `channel`. */
function permissionsIn(
  guild: Guild,
  guildId: string,
  member: { id: string; roles: readonly string[] },
  channel: Pick<DiscordChannel, "permission_overwrites">,
): bigint {
  if (guild.owner_id === member.id) return ALL;
  const roleBits = new Map(guild.roles.map((r) => [r.id, BigInt(r.permissions)]));
  let held = roleBits.get(guildId) ?? 0n;
  for (const role of member.roles) held |= roleBits.get(role) ?? 0n;
  if ((held & ADMINISTRATOR) === ADMINISTRATOR) return ALL;
  const overwrites = channel.permission_overwrites;
  const everyone = overwrites.find((o) => o.type === OVERWRITE.ROLE && o.id === guildId);
  if (everyone) held = (held & ~BigInt(everyone.deny)) | BigInt(everyone.allow);
  let allow = 0n;
  let deny = 0n;
  for (const o of overwrites) {
    if (o.type !== OVERWRITE.ROLE || o.id === guildId || !member.roles.includes(o.id)) continue;
    allow |= BigInt(o.allow);
    deny |= BigInt(o.deny);
  }
  held = (held & ~deny) | allow;
  const own = overwrites.find((o) => o.type === OVERWRITE.MEMBER && o.id === member.id);
  return own ? (held & ~BigInt(own.deny)) | BigInt(own.allow) : held;
}

async function get(ctx: ReplyContext<DiscordSettings>, path: string, what: string): Promise<unknown> {
  return discordRequest({
    apiBaseUrl: ctx.config.DISCORD_API_BASE_URL,
    method: "GET",
    path,
    what,
    botToken: await ctx.token(),
    fetch: ctx.fetch,
  });
}
