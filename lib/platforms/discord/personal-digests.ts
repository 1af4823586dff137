/**
 * @module
 * A person's own digest on Discord (lib/digests/capability.ts). Discord has no channel membership: a person is in
 * a server's channel when they are a member of the server and may view it. So at each run: Get Guild Member (a
 * person who left the server has no channels: 10007 Unknown Member), then Get Guild Channels, of which the text and
 * announcement channels that @everyone may view (public, as ./visibility.ts counts it; never a private channel,
 * a thread or a DM). Whether the person may view and read each one, whatever their roles' overwrites say, is asked
 * before its read like every read made for a person (./asker-permissions.ts): a channel hidden from them is left
 * out. Their DM with the bot is Create DM (`POST /users/@me/channels`), the same channel every time.
 */
import * as z from "../../zod.ts";
import type { PersonalDigestCapability } from "../../digests/capability.ts";
import type { ReplyContext } from "../adapter.ts";
import { DiscordRefused, discordRequest } from "./rest.ts";
import { snowflake } from "./schema.ts";
import type { DiscordSettings } from "./settings.ts";
import type { ChannelTarget } from "./target.ts";
import { channelSchema, everyoneMayView } from "./visibility.ts";

/** GUILD_TEXT and GUILD_ANNOUNCEMENT: the channels people write in (voice, stage, forum and categories are not). */
const TEXT_TYPES: ReadonlySet<number> = new Set([0, 5]);

const listedSchema = z.array(z.extend(channelSchema, { name: z.optional(z.string()) }));
const dmSchema = z.looseObject({ id: snowflake });

const call = async (ctx: ReplyContext<DiscordSettings>, method: "GET" | "POST", path: string, what: string) => ({
  apiBaseUrl: ctx.config.DISCORD_API_BASE_URL,
  method,
  path,
  what,
  botToken: await ctx.token(),
  fetch: ctx.fetch,
});

export const discordPersonalDigests: PersonalDigestCapability<ChannelTarget, ReplyContext<DiscordSettings>> = {
  async places(ctx, { tenant, person }) {
    try {
      await discordRequest(await call(ctx, "GET", `/guilds/${tenant}/members/${person}`, "read a server member"));
    } catch (err) {
      // 10007 Unknown Member: they left the server; no channel of it is theirs now.
      if (err instanceof DiscordRefused && err.status === 404) return [];
      throw err;
    }
    const channels = listedSchema.parse(
      await discordRequest(await call(ctx, "GET", `/guilds/${tenant}/channels`, "list a server's channels")),
    );
    return channels
      .filter((c) => TEXT_TYPES.has(c.type) && everyoneMayView(c, tenant))
      .map((c) => ({
        channel: c.id,
        name: c.name ?? c.id,
        target: { platform: "discord" as const, kind: "channel" as const, channelId: c.id },
      }));
  },
  async dm(ctx, { person }) {
    const opened = dmSchema.parse(
      await discordRequest({
        ...(await call(ctx, "POST", "/users/@me/channels", "open a DM")),
        body: { recipient_id: person },
      }),
    );
    return { channel: opened.id, target: { platform: "discord", kind: "channel", channelId: opened.id } };
  },
};
