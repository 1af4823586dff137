/**
 * @module
 * Where a Slack answer goes: the channel, and the thread when the message was in one.
 */
import * as z from "../../zod.ts";

export const slackTargetSchema = z.object({ platform: z.literal("slack"), channel: z.string(), threadTs: z.optional(z.string()) });

export type SlackTarget = z.output<typeof slackTargetSchema>;
