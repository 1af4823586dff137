/**
 * @module
 * When people asked to be forgotten (their forget mark, written by ./fact-store.ts `forget`), read back: what is
 * read of a place on the platform leaves out what they wrote before they asked, so that a read of the place's
 * history never brings back what "forget me" erased. Catch-up, read_channel and a rescue read through it; the
 * memory job and recall's indexing read the marks themselves; backfill checks the same marks inside its merge
 * script (lib/conversation/backfill.ts).
 */
import { RedisStore } from "../redis-store.ts";
import { forgottenKey, type Tenancy } from "../keys.ts";

/** A message as read from a place: who wrote it, and when (ms). */
interface Written {
  author: { id: string };
  ts: number;
}

export class ForgetMarks extends RedisStore {
  /** When each of `people` in `where`'s tenant asked to be forgotten (ms), for those whose mark stands. One MGET. */
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
