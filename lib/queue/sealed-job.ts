/**
 * @module
 * A job as QStash keeps it (for its retries, its logs and the failure callback): ids in the clear, the personal
 * fields sealed (lib/secrets/seal.ts). Clear: platform, tenant, conversation id, the trigger's id and time, the
 * decision, the place's visibility. Sealed: the place's channel and thread (for SMS, both phone numbers), who wrote
 * the trigger (id and display name), where the answer goes (a phone number, a Discord interaction token), the bot's
 * identity (an SMS bot is a phone number too) and the platform's notes for the system message. Only a holder of
 * TOKEN_ENCRYPTION_KEY reads them, and the sealed part is bound to the clear fields: it opens with this job's clear
 * fields only, so no clear field can be changed or taken from another job.
 */
import * as z from "../zod.ts";
import type { Sealer } from "../secrets/seal.ts";
import { issuePaths } from "../zod-issues.ts";
import type { JobKind, JobPayload } from "./job.ts";

/** The payload format: 3 binds the sealed part to the clear fields and seals the system notes too. */
const FORMAT = 3;
/**
 * The previous release's payloads (2: the sealed part bound to nothing, the system notes in the clear), still
 * opened so that the jobs in flight at a deploy are not lost. Nothing vouches for their clear fields, so the two
 * that reach the model or decide who may read what is remembered are dropped: the system notes, and the place's
 * visibility (the job then asks the platform, as for any message that did not say). Can go one release later.
 */
const UNBOUND_FORMAT = 2;

const personalSchema = z.object({
  channel: z.unknown(),
  thread: z.optional(z.unknown()),
  authorId: z.unknown(),
  authorName: z.unknown(),
  replyTarget: z.unknown(),
  bot: z.unknown(),
  systemNotes: z.optional(z.unknown()),
});

const wireSchema = z.looseObject({
  v: z.union([z.literal(FORMAT), z.literal(UNBOUND_FORMAT)]),
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

/** `kind` stays out of the payload: the route a job is published to names it. */
export async function sealJob(job: JobPayload & { kind?: JobKind }, sealer: Sealer): Promise<SealedJob> {
  const { kind: _route, key, trigger, replyTarget, bot, systemNotes, ...clear } = job;
  const personal = {
    channel: key.channel,
    ...(key.thread !== undefined ? { thread: key.thread } : {}),
    authorId: trigger.authorId,
    authorName: trigger.authorName,
    replyTarget,
    bot,
    ...(systemNotes !== undefined ? { systemNotes } : {}),
  };
  // As QStash will hand it back: JSON, so that sealing and opening bind the very same fields.
  const wire = JSON.parse(
    JSON.stringify({
      v: FORMAT,
      ...clear,
      platform: key.platform,
      tenant: key.tenant,
      trigger: { id: trigger.id, ts: trigger.ts },
    }),
  ) as Record<string, unknown>;
  return { ...wire, v: FORMAT, sealed: await sealer.seal(JSON.stringify(personal), canonicalJson(wire)) };
}

/** The job, opened and validated with `schema`; throws JobPayloadError when it is not one. */
export async function openJob(body: unknown, sealer: Sealer, schema: z.ZodMiniType<JobPayload>): Promise<JobPayload> {
  const wire = wireSchema.safeParse(body);
  if (!wire.success) throw new JobPayloadError(issuePaths(wire.error));
  const { v: format, platform, tenant, trigger, sealed, ...clear } = wire.data;
  const bound = format === FORMAT;
  let personal: z.output<typeof personalSchema>;
  try {
    const { sealed: _sealed, ...clearFields } = body as Record<string, unknown>;
    const opened = bound
      ? await sealer.open(sealed, canonicalJson(clearFields))
      : await sealer.open(sealed, "", { unbound: true });
    personal = personalSchema.parse(JSON.parse(opened));
  } catch {
    throw new JobPayloadError(["sealed"]);
  }
  const { systemNotes: _clearNotes, visibility, ...rest } = clear;
  const job = schema.safeParse({
    ...rest,
    ...(bound && visibility !== undefined ? { visibility } : {}),
    ...(bound && personal.systemNotes !== undefined ? { systemNotes: personal.systemNotes } : {}),
    key: {
      platform,
      tenant,
      channel: personal.channel,
      ...(personal.thread !== undefined ? { thread: personal.thread } : {}),
    },
    trigger: { id: trigger.id, ts: trigger.ts, authorId: personal.authorId, authorName: personal.authorName },
    replyTarget: personal.replyTarget,
    bot: personal.bot,
  });
  if (!job.success) throw new JobPayloadError(issuePaths(job.error));
  return job.data;
}

/** JSON with every object's keys in order: the same fields always give the same text, however they were ordered. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
