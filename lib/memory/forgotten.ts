/**
 * @module
 * When people asked to be forgotten: each person's "forgotten before T" record (their id in the key, the time of
 * their latest request, no text), written by ./forget.ts and kept for good: the platforms keep the messages, and
 * a read of a place's history reaches back as far as a Slack thread is old, so no TTL would outlive every read.
 * What is read of a place leaves out what they wrote before they asked, so that no read of its history ever brings
 * back what "forget me" erased. Catch-up, read_channel and a rescue read through it; the memory job and recall's
 * indexing read the records themselves; backfill checks them inside its merge script (lib/conversation/backfill.ts)
 * and the facts' merge inside its own (./fact-store.ts).
 */
import { defineScript } from "../redis-script.ts";
import { RedisStore } from "../redis-store.ts";
import * as z from "../zod.ts";
import { forgottenKey, type Tenancy } from "../keys.ts";

/**
 * The record moves only forward (a retried older request never shortens it) and loses any TTL (a mark written with
 * the one day it used to have is kept from now on). Returns the time it holds.
 */
const FORGET_BEFORE = defineScript({
  keys: { forgotten: "key" },
  args: z.object({ at: z.number() }),
  result: z.number(),
  lua: `
local held = tonumber(redis.call('GET', K.forgotten) or '')
if held and held >= A.at then
  redis.call('PERSIST', K.forgotten)
  return held
end
redis.call('SET', K.forgotten, tostring(A.at))
return A.at
`,
});

/** A message as read from a place: who wrote it, and when (ms). */
interface Written {
  author: { id: string };
  ts: number;
}

export class ForgetMarks extends RedisStore {
  /** Records that `person` in `where`'s tenant asked at `askedAt` (ms) to be forgotten: kept for good. */
  async forgetBefore(where: Tenancy, person: string, askedAt: number): Promise<void> {
    await FORGET_BEFORE.run(this.redis, { forgotten: forgottenKey(this.prefix, where, person) }, { at: askedAt });
  }

  /** When each of `people` in `where`'s tenant asked to be forgotten (ms), for those who did. One MGET. */
  async askedAt(where: Tenancy, people: readonly string[]): Promise<Map<string, number>> {
    if (people.length === 0) return new Map();
    const marks = await this.redis.mget<(string | number | null)[]>(
      ...people.map((p) => forgottenKey(this.prefix, where, p)),
    );
    return new Map(
      people.flatMap((p, i) => (marks[i] === null || marks[i] === undefined ? [] : [[p, Number(marks[i])]])),
    );
  }

  /** `messages` but those a person wrote before asking to be forgotten in `where`'s tenant; none read for none. */
  async withoutForgotten<M extends Written>(where: Tenancy, messages: readonly M[]): Promise<M[]> {
    const people = [...new Set(messages.map((m) => m.author.id))];
    if (people.length === 0) return [];
    const forgottenAt = await this.askedAt(where, people);
    return messages.filter((m) => m.ts > (forgottenAt.get(m.author.id) ?? -1));
  }
}
