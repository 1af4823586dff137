/**
 * @module
 * A job as QStash keeps it (for its retries, its logs and the failure callback): ids in the clear, the personal
 * fields sealed (lib/secrets/seal.ts). Clear: platform, tenant, conversation id, the trigger's id and time, the
 * decision, the platform's own instructions, the place's visibility. Sealed: the place's channel and thread (for
 * SMS, both phone numbers), who wrote the trigger (id and display name), where the answer goes (a phone number, a
 * Discord interaction token) and the bot's identity (an SMS bot is a phone number too). Only a holder of
 * TOKEN_ENCRYPTION_KEY reads them.
 */
import * as z from "../zod.ts";
import type { Sealer } from "../secrets/seal.ts";
import { issuePaths } from "../zod-issues.ts";
import type { Job } from "./job.ts";

/** The payload format: 2 seals the personal fields (1 carried them in the clear). */
const FORMAT = 2;

const personalSchema = z.object({
  channel: z.unknown(),
  thread: z.optional(z.unknown()),
  authorId: z.unknown(),
  authorName: z.unknown(),
  replyTarget: z.unknown(),
  bot: z.unknown(),
});

const wireSchema = z.looseObject({
  v: z.literal(FORMAT),
  platform: z.unknown(),
  tenant: z.unknown(),
  trigger: z.looseObject({ id: z.unknown(), ts: z.unknown() }),
  sealed: z.string(),
});

export type SealedJob = Record<string, unknown> & { v: typeof FORMAT; sealed: string };

/** A payload that is not a job this Worker sealed: `fields` names what failed, never a value. */
export class JobPayloadError extends Error {
  readonly fields: string[];
  constructor(fields: string[]) {
    super(`invalid job payload: ${fields.join(", ")}`);
    this.name = "JobPayloadError";
    this.fields = fields;
  }
}

export async function sealJob(job: Job, sealer: Sealer): Promise<SealedJob> {
  const { key, trigger, replyTarget, bot, ...clear } = job;
  const personal = {
    channel: key.channel,
    ...(key.thread !== undefined ? { thread: key.thread } : {}),
    authorId: trigger.authorId,
    authorName: trigger.authorName,
    replyTarget,
    bot,
  };
  return {
    v: FORMAT,
    ...clear,
    platform: key.platform,
    tenant: key.tenant,
    trigger: { id: trigger.id, ts: trigger.ts },
    sealed: await sealer.seal(JSON.stringify(personal)),
  };
}

/** The job, opened and validated with `schema`; throws JobPayloadError when it is not one. */
export async function openJob(body: unknown, sealer: Sealer, schema: z.ZodMiniType<Job>): Promise<Job> {
  const wire = wireSchema.safeParse(body);
  if (!wire.success) throw new JobPayloadError(issuePaths(wire.error));
  const { v: _format, platform, tenant, trigger, sealed, ...clear } = wire.data;
  let personal: z.output<typeof personalSchema>;
  try {
    personal = personalSchema.parse(JSON.parse(await sealer.open(sealed)));
  } catch {
    throw new JobPayloadError(["sealed"]);
  }
  const job = schema.safeParse({
    ...clear,
    key: { platform, tenant, channel: personal.channel, ...(personal.thread !== undefined ? { thread: personal.thread } : {}) },
    trigger: { id: trigger.id, ts: trigger.ts, authorId: personal.authorId, authorName: personal.authorName },
    replyTarget: personal.replyTarget,
    bot: personal.bot,
  });
  if (!job.success) throw new JobPayloadError(issuePaths(job.error));
  return job.data;
}
