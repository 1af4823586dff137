/**
 * @module
 * The job payload that travels through QStash from the inbound flow to `/jobs/:kind`. Validated on arrival.
 */
import * as z from "zod";

/** `memory` runs after an answer is posted: facts about the people, and folding old messages into the summary. */
export const JOB_KINDS = ["reply", "judge", "memory"] as const;
export type JobKind = (typeof JOB_KINDS)[number];

const conversationKeySchema = z.object({
  platform: z.enum(["slack", "discord", "twilio"]),
  tenant: z.string().min(1),
  channel: z.string().min(1),
  thread: z.string().min(1).optional(),
});

// Two Discord variants share `platform`, so a plain union rather than a discriminated one.
const replyTargetSchema = z.union([
  z.object({ platform: z.literal("slack"), channel: z.string(), threadTs: z.string().optional() }),
  z.object({
    platform: z.literal("discord"),
    kind: z.literal("interaction"),
    applicationId: z.string(),
    token: z.string(),
    expiresAt: z.number(),
  }),
  z.object({
    platform: z.literal("discord"),
    kind: z.literal("channel"),
    channelId: z.string(),
    replyToMessageId: z.string().optional(),
  }),
  z.object({ platform: z.literal("twilio"), accountSid: z.string(), to: z.string(), from: z.string() }),
]);

export const jobSchema = z.object({
  v: z.literal(1),
  key: conversationKeySchema,
  conversationId: z.string().min(1),
  trigger: z.object({ id: z.string().min(1), ts: z.number(), authorId: z.string(), authorName: z.string() }),
  /** A direct address (mention, DM, command, SMS): the bot must answer even if the model would rather not. */
  required: z.boolean(),
  reason: z.string(),
  bot: z.object({ userId: z.string(), name: z.string(), aliases: z.array(z.string()) }),
  replyTarget: replyTargetSchema,
  systemNotes: z.array(z.string().max(2_000)).max(5).optional(),
  /** Answer only the last message of the person's burst: a job whose author wrote again since ends, and the later
   *  message's job answers them all. */
  waitsForBurst: z.boolean().optional(),
});

export type Job = z.output<typeof jobSchema>;
