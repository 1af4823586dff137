/**
 * @module
 * Where a Slack answer goes: the channel, and the thread when the message was in one; and the workspace of the
 * person answered (`chat.startStream`'s `recipient_team_id`: theirs, not the tenant's, in a Slack Connect channel
 * or on Enterprise Grid). Jobs queued before it was recorded lack it.
 */
import * as z from "../../zod.ts";

export const slackTargetSchema = z.object({
  platform: z.literal("slack"),
  channel: z.string(),
  threadTs: z.optional(z.string()),
  recipientTeam: z.optional(z.string()),
});

export type SlackTarget = z.output<typeof slackTargetSchema>;
