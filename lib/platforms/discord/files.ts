/**
 * @module
 * Attachments of a Discord message: kept as references (id, CDN URL, content type, size, dimensions, file name)
 * and fetched by a reply job from Discord's CDN, which serves them without the bot token (the URL carries its own
 * signature and expiry). Only CDN hosts, or the configured API's own host, are fetched from.
 */
import * as z from "../../zod.ts";
import { storableRefs, type FileRef } from "../../files/file-ref.ts";
import { fetchCapped, servedFrom, type FileSupport } from "../file-fetch.ts";
import type { ReplyContext } from "../adapter.ts";
import { snowflake } from "./schema.ts";
import type { DiscordSettings } from "./settings.ts";

const DISCORD_CDN_ORIGINS = ["https://cdn.discordapp.com", "https://media.discordapp.net"];

/** An attachment object as Discord sends it on a message. */
const attachmentSchema = z.looseObject({
  id: snowflake,
  filename: z.string(),
  size: z.number().check(z.int(), z.gte(0)),
  url: z.string().check(z.url({ protocol: /^https?$/ })),
  content_type: z.optional(z.string()),
  width: z.nullish(z.number().check(z.int(), z.gte(1))),
  height: z.nullish(z.number().check(z.int(), z.gte(1))),
});
export type DiscordAttachment = z.output<typeof attachmentSchema>;

/** A message's `attachments` as references, each read on its own: an odd one is left out, never the message. */
export function messageFileRefs(attachments: readonly unknown[]): FileRef[] {
  return discordFileRefs(
    attachments.flatMap((raw) => {
      const parsed = attachmentSchema.safeParse(raw);
      return parsed.success ? [parsed.data] : [];
    }),
  );
}

export function discordFileRefs(attachments: readonly DiscordAttachment[]): FileRef[] {
  const refs = attachments.map((a) => ({
    id: a.id,
    url: a.url,
    name: a.filename.slice(0, 256),
    type: (a.content_type ?? "").slice(0, 128),
    size: a.size,
    ...(a.width && a.height ? { width: a.width, height: a.height } : {}),
  }));
  return storableRefs(refs);
}

export const discordFiles: FileSupport<ReplyContext<DiscordSettings>> = {
  async fetchFile(ctx, ref, maxBytes, keep) {
    if (!ref.url || !servedFrom(ref.url, [...DISCORD_CDN_ORIGINS, ctx.config.DISCORD_API_BASE_URL])) return null;
    return fetchCapped(ctx.fetch, ref.url, {}, { maxBytes, keep });
  },
};
