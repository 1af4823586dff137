/**
 * @module
 * One digest slot's record (`digest:<schedule>:<slot>` in lib/keys.ts): what its run read and summarized (the
 * catch-up's progress, lib/catch-up/progress.ts), the text once written, the parts posted, and how it ended. Each
 * unit of work saves it before the next begins, so a redelivered slot resumes where the last attempt stopped and
 * a finished one does nothing. An attempt takes the slot's claim first (one at a time, QStash may deliver twice at
 * once); `last` keeps the slot of the last digest that ran, where the next one starts reading. A tenant's schedule
 * ids are listed too, for its cleanup to delete at QStash (lib/tenants/cleanup.ts).
 */
import { catchUpProgressSchema } from "../catch-up/progress.ts";
import { digestIndexKey, digestKeys, type Tenancy } from "../keys.ts";
import { RedisStore } from "../redis-store.ts";
import * as z from "../zod.ts";

/** Longer than a weekly period and QStash's last retry: a redelivery a week on still finds the slot done. */
export const SLOT_TTL_SECONDS = 9 * 86_400;
/** Longer than one attempt's work (a page per read, a model call per chunk); a crashed attempt's runs out. */
const CLAIM_TTL_SECONDS = 120;
/** Past any period and its retries: a schedule deleted without its `off` leaves this behind no longer. */
const LAST_TTL_SECONDS = 30 * 86_400;

const DIGEST_OUTCOMES = ["posted", "nothing_said", "over_budget", "refused"] as const;
export type DigestOutcome = (typeof DIGEST_OUTCOMES)[number];

export const slotSchema = z.object({
  /** The slot was first taken up this long after its time: its digest says it is late. */
  late: z.boolean(),
  progress: catchUpProgressSchema,
  /** The digest to post, written before the first part's call. */
  text: z.optional(z.string()),
  /** The ids of the parts posted so far. */
  posted: z.array(z.string()),
  /** The call that posts part `index` began at `since` (ms) and was never heard back from. */
  starting: z.optional(z.object({ index: z.number(), since: z.number() })),
  outcome: z.optional(z.enum(DIGEST_OUTCOMES)),
});
export type DigestSlot = z.output<typeof slotSchema>;

export class DigestSlotStore extends RedisStore {
  async load(scheduleId: string, slot: number): Promise<DigestSlot | null> {
    const parsed = slotSchema.safeParse(await this.redis.get<unknown>(digestKeys(this.prefix, scheduleId, slot).slot));
    return parsed.success ? parsed.data : null;
  }

  async save(scheduleId: string, slot: number, record: DigestSlot): Promise<void> {
    await this.redis.set(digestKeys(this.prefix, scheduleId, slot).slot, JSON.stringify(record), {
      ex: SLOT_TTL_SECONDS,
    });
  }

  /** Takes the slot's claim for `token`; false while another attempt holds it. */
  async claim(scheduleId: string, slot: number, token: string): Promise<boolean> {
    const set = await this.redis.set(digestKeys(this.prefix, scheduleId, slot).claim, token, {
      nx: true,
      ex: CLAIM_TTL_SECONDS,
    });
    return set === "OK";
  }

  async release(scheduleId: string, slot: number): Promise<void> {
    await this.redis.del(digestKeys(this.prefix, scheduleId, slot).claim);
  }

  /** The slot of the schedule's last digest (ms); null before the first. */
  async lastSlot(scheduleId: string): Promise<number | null> {
    const last = await this.redis.get<unknown>(digestKeys(this.prefix, scheduleId).last);
    return typeof last === "number" ? last : typeof last === "string" && /^\d+$/.test(last) ? Number(last) : null;
  }

  /** How the schedule's last digest ended, for the admin view; null before the first. */
  async latest(scheduleId: string): Promise<{ slot: number; outcome?: DigestOutcome; late: boolean } | null> {
    const slot = await this.lastSlot(scheduleId);
    const record = slot === null ? null : await this.load(scheduleId, slot);
    if (slot === null || !record) return null;
    return { slot, late: record.late, ...(record.outcome ? { outcome: record.outcome } : {}) };
  }

  /** The slot ended with `outcome`: recorded, and the next digest reads from it. */
  async finish(scheduleId: string, slot: number, record: DigestSlot, outcome: DigestOutcome): Promise<void> {
    const keys = digestKeys(this.prefix, scheduleId, slot);
    const { progress, text: _text, ...kept } = record;
    // What was read goes once the slot is done: the record keeps only how it ended.
    const done = { ...kept, progress: { ...progress, messages: [], notes: [] }, outcome };
    await this.redis.set(keys.slot, JSON.stringify(done), { ex: SLOT_TTL_SECONDS });
    await this.ended(scheduleId, slot);
  }

  /** The slot's record is saved as done: the next digest reads from it, and the claim goes. */
  async ended(scheduleId: string, slot: number): Promise<void> {
    const last = Math.max(slot, (await this.lastSlot(scheduleId)) ?? 0);
    await this.redis.set(digestKeys(this.prefix, scheduleId).last, String(last), { ex: LAST_TTL_SECONDS });
    await this.release(scheduleId, slot);
  }

  /** A digest set up in a place of `where`. */
  async enlist(where: Tenancy, scheduleId: string): Promise<void> {
    await this.redis.sadd(digestIndexKey(this.prefix, where), scheduleId);
  }

  /** The schedule ids of every digest of `where`. */
  async enlisted(where: Tenancy): Promise<string[]> {
    return this.redis.smembers(digestIndexKey(this.prefix, where));
  }

  /** A digest turned off: its id off the tenant's list, and where it would read from dropped. */
  async forget(where: Tenancy, scheduleId: string): Promise<void> {
    await this.redis.srem(digestIndexKey(this.prefix, where), scheduleId);
    await this.redis.del(digestKeys(this.prefix, scheduleId).last);
  }
}
