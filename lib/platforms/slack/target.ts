/**
 * @module
 * Where a Slack answer goes: the channel, and the thread when the message was in one.
 */
import * as z from "zod";

export const slackTargetSchema = z.object({ platform: z.literal("slack"), channel: z.string(), threadTs: z.string().optional() });

export type SlackTarget = z.output<typeof slackTargetSchema>;
