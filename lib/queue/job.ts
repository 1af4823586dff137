/**
 * @module
 * A job: what the inbound flow hands to `/jobs/:kind` through QStash. It travels sealed (./sealed-job.ts) and is
 * validated once opened with a schema built from the platforms' adapters (functions/jobs.ts), so that the core
 * never restates a platform's reply target; its kind is its route's.
 */
import * as z from "../zod.ts";
import { LOG_IDS, VISIBILITIES, type Platform, type ReplyTarget } from "../message.ts";

/** `memory` runs after an answer is posted: facts about the people, and folding old messages into the summary;
 *  `rescue` RESCUE_AFTER_MINUTES after a question nobody was asked to answer (lib/rescue/job.ts); `approval` after a
 *  person's ✅ or ❌ on a confirm tool's question, or when it expires (lib/approvals/continuation.ts); `digest` at each
 *  time of a place's digest schedule (lib/digests/run.ts), `digest_me` of a person's (lib/digests/personal-run.ts). */
export const JOB_KINDS = ["reply", "judge", "memory", "rescue", "approval", "digest", "digest_me"] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** What the job schema needs of each platform: its name and the schema of its reply target. */
export interface JobPlatform {
  platform: Platform;
  replyTargetSchema: z.ZodMiniType<ReplyTarget>;
}

export function jobSchemaFor(platforms: readonly JobPlatform[]) {
  const schema = z.object({
    key: z.object({
      platform: z.literal(platforms.map((p) => p.platform)),
      tenant: z.string().check(z.minLength(1)),
      channel: z.string().check(z.minLength(1)),
      thread: z.optional(z.string().check(z.minLength(1))),
    }),
    conversationId: z.string().check(z.minLength(1)),
    trigger: z.object({
      id: z.string().check(z.minLength(1)),
      ts: z.number(),
      authorId: z.string(),
      authorName: z.string(),
    }),
    /** A direct address (mention, DM, command, SMS): the bot must answer even if the model would rather not. */
    required: z.boolean(),
    reason: z.string(),
    bot: z.object({ userId: z.string(), name: z.string(), aliases: z.array(z.string()) }),
    replyTarget: z.union(platforms.map((p) => p.replyTargetSchema)),
    systemNotes: z.optional(z.array(z.string().check(z.maxLength(2_000))).check(z.maxLength(5))),
    /** Answer only the last message of the person's burst: a job whose author wrote again since ends, and the later
     *  message's job answers them all. */
    waitsForBurst: z.optional(z.boolean()),
    /**
     * Who can read the place, when the message said so; otherwise the job asks the platform (lib/jobs/visibility.ts).
     */
    visibility: z.optional(z.enum(VISIBILITIES)),
    /** How log lines name the place and the people (lib/log-ids.ts); absent: as they are. */
    logIds: z.optional(z.enum(LOG_IDS)),
    /**
     * The person can opt out of the bot's messages (SMS STOP): every send checks that they have not (lib/jobs/post.ts).
     */
    optOuts: z.optional(z.literal(true)),
    /** The webhook puts the working sign up (lib/jobs/working-sign.ts): the job only ever takes it down. */
    signByWebhook: z.optional(z.literal(true)),
    /**
     * The ingest script keeps the place's messages (IngestOptions.keepHistory): "forget me" clears them too
     * (lib/memory/forget.ts).
     */
    keptHistory: z.optional(z.literal(true)),
    /** The asker may not read the place's history (InboundMessage.historyHidden): none is read for this job. */
    historyHidden: z.optional(z.string().check(z.regex(/^[A-Z_]{1,64}$/))),
    /** The place shows 👍 / 👎 under each answer (`/parley feedback on`, lib/feedback/capability.ts). */
    feedback: z.optional(z.literal(true)),
    /**
     * An approval's continuation (lib/approvals/continuation.ts): the id of the bot's message that asked (a message id,
     * no person's).
     */
    approvalQuestion: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
  });
  return schema.check(
    z.refine((job) => job.replyTarget.platform === job.key.platform, {
      message: "the reply target's platform is not the conversation's",
      path: ["replyTarget", "platform"],
    }),
  );
}

/** What travels through QStash, whatever the kind: the route (`/jobs/<kind>`) names the kind, the payload does not. */
export type JobPayload = z.output<ReturnType<typeof jobSchemaFor>>;

/** A job of one kind: its payload, and its kind (its route's, never sealed into the payload: ./sealed-job.ts). */
export type JobOf<K extends JobKind> = JobPayload & { kind: K };

/** Any job: a union by `kind`, which each runner narrows to its own (functions/jobs.ts). */
export type Job = { [K in JobKind]: JobOf<K> }[JobKind];
