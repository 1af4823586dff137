/**
 * @module
 * A person's own digest (`/parley digest me …`): its schedule and plan (`digest-me:<platform>|<tenant>|<person>` in
 * lib/keys.ts), and each slot's record under the slot keys of every digest (`digest:<schedule>:<slot>`, ./slots.ts,
 * whose claim and `last` it shares): the public channels listed at the slot's first attempt, one section per
 * channel (a place digest's record each: what was read, the notes, the text), the DM it goes to, the parts posted.
 * Once the slot is done only how it ended is kept, as for a place's digest.
 */
import { digestKeys, personalDigestKey, type Tenancy } from "../keys.ts";
import { RedisStore } from "../redis-store.ts";
import * as z from "../zod.ts";
import { digestPlanSchema } from "./plan.ts";
import { type DigestOutcome, SLOT_TTL_SECONDS, slotSchema } from "./slots.ts";

const personalDigestSchema = z.object({ scheduleId: z.string().check(z.minLength(1)), plan: digestPlanSchema });
export type PersonalDigest = z.output<typeof personalDigestSchema>;

const placeSchema = z.object({
  channel: z.string(),
  name: z.string(),
  target: z.looseObject({ platform: z.string() }),
});
const personalSlotSchema = z.extend(slotSchema, {
  /** The person's public channels, as the platform listed them at the slot's first attempt. */
  places: z.optional(z.array(placeSchema)),
  /** Each channel's section, by channel id, once its reading began. */
  sections: z.record(z.string(), slotSchema),
  /** Where the digest goes: the person's DM (its channel and target), once opened. */
  dm: z.optional(z.object({ channel: z.string(), target: placeSchema.shape.target })),
});
export type PersonalSlot = z.output<typeof personalSlotSchema>;

export class PersonalDigestStore extends RedisStore {
  async get(where: Tenancy, person: string): Promise<PersonalDigest | null> {
    const parsed = personalDigestSchema.safeParse(
      await this.redis.get<unknown>(personalDigestKey(this.prefix, where, person)),
    );
    return parsed.success ? parsed.data : null;
  }

  async set(where: Tenancy, person: string, digest: PersonalDigest): Promise<void> {
    await this.redis.set(personalDigestKey(this.prefix, where, person), JSON.stringify(digest));
  }

  async clear(where: Tenancy, person: string): Promise<void> {
    await this.redis.del(personalDigestKey(this.prefix, where, person));
  }

  async load(scheduleId: string, slot: number): Promise<PersonalSlot | null> {
    const parsed = personalSlotSchema.safeParse(
      await this.redis.get<unknown>(digestKeys(this.prefix, scheduleId, slot).slot),
    );
    return parsed.success ? parsed.data : null;
  }

  async save(scheduleId: string, slot: number, record: PersonalSlot): Promise<void> {
    await this.redis.set(digestKeys(this.prefix, scheduleId, slot).slot, JSON.stringify(record), {
      ex: SLOT_TTL_SECONDS,
    });
  }

  /** The slot ended with `outcome`: what was read, noted and written goes; how each section ended stays. */
  async finish(scheduleId: string, slot: number, record: PersonalSlot, outcome: DigestOutcome): Promise<void> {
    const { progress, text: _text, sections, dm: _dm, ...kept } = record;
    const emptied = { ...progress, messages: [], notes: [] };
    const ended = Object.fromEntries(
      Object.entries(sections).map(([channel, s]) => [
        channel,
        { ...s, text: undefined, progress: { ...s.progress, messages: [], notes: [] } },
      ]),
    );
    const done = { ...kept, progress: emptied, sections: ended, outcome };
    await this.redis.set(digestKeys(this.prefix, scheduleId, slot).slot, JSON.stringify(done), {
      ex: SLOT_TTL_SECONDS,
    });
  }
}
