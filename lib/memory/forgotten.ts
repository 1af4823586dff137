/**
 * @module
 * What is read of a place on the platform, without what people who asked to be forgotten wrote before they asked:
 * their forget mark (./fact-store.ts `forget`) holds when they did, so that a read of the place's history never
 * brings back what "forget me" erased. Catch-up, read_channel and a rescue read through it; backfill checks the
 * same marks inside its merge script (lib/conversation/backfill.ts).
 */
import type { Redis } from "@upstash/redis/cloudflare";
import { forgottenKey, type Tenancy } from "../keys.ts";

/** A message as read from a place: who wrote it, and when (ms). */
interface Written {
  author: { id: string };
  ts: number;
}

/** `messages` but those a person wrote before asking to be forgotten in `where`'s tenant. One MGET, none for no messages. */
export async function withoutForgotten<M extends Written>(
  redis: Redis,
  prefix: string,
  where: Tenancy,
  messages: readonly M[],
): Promise<M[]> {
  const people = [...new Set(messages.map((m) => m.author.id))];
  if (people.length === 0) return [];
  const marks = await redis.mget<(string | number | null)[]>(...people.map((p) => forgottenKey(prefix, where, p)));
  const forgottenAt = new Map(
    people.map((p, i) => [p, marks[i] === null || marks[i] === undefined ? -1 : Number(marks[i])]),
  );
  return messages.filter((m) => m.ts > (forgottenAt.get(m.author.id) ?? -1));
}
