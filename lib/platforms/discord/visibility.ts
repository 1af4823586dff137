/**
 * @module
 * Who can read a Discord place. A DM (its tenant is the person) is `dm`; a private thread is `private`; a server
 * channel is `public` only when its permission overwrites leave @everyone (the role whose id is the server's) able to
 * view it, which only `GET /channels/{id}` tells: a thread takes its parent's. Asked by jobs, never by the webhook.
 * A server that hides its channels from @everyone through the role's own permissions rather than overwrites (a
 * members-only server) counts as public: everyone who got in reads them. A failed lookup throws, and the caller
 * counts the place as private.
 */
import * as z from "../../zod.ts";
import type { ConversationKey, Visibility } from "../../message.ts";
import type { ReplyContext } from "../adapter.ts";
import type { DiscordSettings } from "./settings.ts";
import { DM_TENANT_PREFIX } from "./parse.ts";
import { discordRequest } from "./rest.ts";
import { snowflake } from "./schema.ts";

const CHANNEL_TYPE = { ANNOUNCEMENT_THREAD: 10, PUBLIC_THREAD: 11, PRIVATE_THREAD: 12 } as const;
const VIEW_CHANNEL = 1n << 10n;
const ROLE_OVERWRITE = 0;

export const channelSchema = z.looseObject({
  id: snowflake,
  type: z.number().check(z.int()),
  parent_id: z.nullish(snowflake),
  permission_overwrites: z._default(
    z.array(
      z.looseObject({
        id: snowflake,
        type: z.coerce.number().check(z.int()),
        allow: z._default(z.string().check(z.regex(/^\d+$/)), "0"),
        deny: z.string().check(z.regex(/^\d+$/)),
      }),
    ),
    [],
  ),
});
export type DiscordChannel = z.output<typeof channelSchema>;

export async function discordPlaceVisibility(
  ctx: ReplyContext<DiscordSettings>,
  place: ConversationKey,
): Promise<Visibility> {
  if (place.tenant.startsWith(DM_TENANT_PREFIX)) return "dm";
  const channel = await readChannel(ctx, place.channel);
  if (channel.type === CHANNEL_TYPE.PRIVATE_THREAD) return "private";
  const readers = isThread(channel) && channel.parent_id ? await readChannel(ctx, channel.parent_id) : channel;
  return everyoneMayView(readers, place.tenant) ? "public" : "private";
}

export function isThread(channel: DiscordChannel): boolean {
  return (
    channel.type === CHANNEL_TYPE.PUBLIC_THREAD ||
    channel.type === CHANNEL_TYPE.ANNOUNCEMENT_THREAD ||
    channel.type === CHANNEL_TYPE.PRIVATE_THREAD
  );
}

/** Whether @everyone (the role whose id is the guild's) may view `channel`: a public channel. */
export function everyoneMayView(channel: DiscordChannel, guildId: string): boolean {
  const everyone = channel.permission_overwrites.find((o) => o.type === ROLE_OVERWRITE && o.id === guildId);
  return !everyone || (BigInt(everyone.deny) & VIEW_CHANNEL) === 0n;
}

export async function readChannel(ctx: ReplyContext<DiscordSettings>, id: string): Promise<DiscordChannel> {
  const body = await discordRequest({
    apiBaseUrl: ctx.config.DISCORD_API_BASE_URL,
    method: "GET",
    path: `/channels/${id}`,
    what: "read a channel",
    botToken: await ctx.token(),
    fetch: ctx.fetch,
  });
  return channelSchema.parse(body);
}
