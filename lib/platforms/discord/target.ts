/**
 * @module
 * Where a Discord answer goes: the deferred "thinking…" message of an interaction (its token lives 15 minutes), or
 * the channel of a Gateway message, as a reply to it when it addressed the bot.
 */
import * as z from "../../zod.ts";

const interactionTargetSchema = z.object({
  platform: z.literal("discord"),
  kind: z.literal("interaction"),
  applicationId: z.string(),
  token: z.string(),
  expiresAt: z.number(),
});

const channelTargetSchema = z.object({
  platform: z.literal("discord"),
  kind: z.literal("channel"),
  channelId: z.string(),
  replyToMessageId: z.optional(z.string()),
});

export const discordTargetSchema = z.discriminatedUnion("kind", [interactionTargetSchema, channelTargetSchema]);

export type DiscordTarget = z.output<typeof discordTargetSchema>;
export type InteractionTarget = z.output<typeof interactionTargetSchema>;
export type ChannelTarget = z.output<typeof channelTargetSchema>;
