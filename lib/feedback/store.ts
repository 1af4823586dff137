/**
 * @module
 * Feedback on the bot's answers (./capability.ts), kept per place as numbers only: one record per person and answer
 * (so that a double click, a redelivered press or a second press counts once), and the place's counts of 👍, 👎 on
 * an answer's quality, and 👎 that told an unprompted bot "not you". Both live as long as the conversation's data.
 */
import { feedbackKeys } from "../keys.ts";
import type { ConversationKey } from "../message.ts";
import { defineScript, luaFlag } from "../redis-script.ts";
import { RedisStore } from "../redis-store.ts";
import * as z from "../zod.ts";

/** What a press counts as: a 👍, a 👎 on the answer's quality, or a 👎 that says the bot was not addressed. */
export type FeedbackKind = "up" | "down" | "not_you";

export type FeedbackCounts = Record<FeedbackKind, number>;

/**
 * Keys: the person's `press` record on the answer, the place's `counts` (a hash by kind). Arguments: the `kind`,
 * `ttlSeconds`. Returns 1 when this press is the person's first on the answer (and counted), 0 otherwise.
 */
const RECORD_PRESS = defineScript({
  keys: { press: "key", counts: "key" },
  args: z.object({ kind: z.enum(["up", "down", "not_you"]), ttlSeconds: z.number().check(z.int(), z.gte(1)) }),
  result: luaFlag,
  lua: `
if not redis.call('SET', K.press, A.kind, 'NX', 'EX', A.ttlSeconds) then return 0 end
redis.call('HINCRBY', K.counts, A.kind, 1)
redis.call('EXPIRE', K.counts, A.ttlSeconds)
return 1
`,
});

const countsSchema = z.record(z.string(), z.union([z.number(), z.string()]));

export class FeedbackStore extends RedisStore {
  /** Records `person`'s press on message `messageId` once; true when it was the first (and so counted). */
  async record(
    place: ConversationKey,
    messageId: string,
    person: string,
    kind: FeedbackKind,
    ttlSeconds: number,
  ): Promise<boolean> {
    const keys = feedbackKeys(this.prefix, place, messageId, person);
    return RECORD_PRESS.run(this.redis, keys, { kind, ttlSeconds });
  }

  /** The place's counts, 0 for a kind nobody pressed. */
  async counts(place: ConversationKey): Promise<FeedbackCounts> {
    const raw = countsSchema.safeParse((await this.redis.hgetall(feedbackKeys(this.prefix, place).counts)) ?? {});
    const read = (kind: FeedbackKind) => (raw.success ? Number(raw.data[kind] ?? 0) || 0 : 0);
    return { up: read("up"), down: read("down"), not_you: read("not_you") };
  }
}
