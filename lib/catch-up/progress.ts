/**
 * @module
 * A catch-up's progress across its steps (`catchup:` in lib/keys.ts; lib/catch-up/pages.ts): the pages read
 * and the chunks' notes, kept an hour at most and dropped once the answer is out. Only one attempt runs at a time
 * (the answer's claim, and QStash's one-at-a-time per place), so a plain GET and SET suffice.
 */
import { RedisStore } from "../redis-store.ts";
import { catchUpKey } from "../keys.ts";
import type { ConversationKey } from "../message.ts";
import { modelCallSchema } from "../conversation/answer-trace.ts";
import * as z from "../zod.ts";

/** Long enough for every step of a catch-up and QStash's retries; the messages it holds go soon after. */
const PROGRESS_TTL_SECONDS = 3_600;

const readMessageSchema = z.object({
  id: z.string(),
  author: z.string(),
  authorId: z.string(),
  bot: z.optional(z.literal(true)),
  text: z.string(),
  ts: z.number(),
});
const pageEndSchema = z.object({ id: z.string(), ts: z.number() });
export type PageEnd = z.output<typeof pageEndSchema>;
export const catchUpProgressSchema = z.object({
  since: z.number(),
  /** The next page ends before this message (the oldest read so far); null once reading is done. */
  before: z.nullable(pageEndSchema),
  pages: z.number(),
  /** What was read, newest page first (sorted when chunked). */
  messages: z.array(readMessageSchema),
  /** One note per chunk summarized so far, in order. */
  notes: z.array(z.string()),
  /** Each model call made so far, with its prompt, for the answer's trace (./progress-line.ts). */
  calls: z.optional(z.array(modelCallSchema)),
});
export type CatchUpProgress = z.output<typeof catchUpProgressSchema>;
export type ReadMessage = z.output<typeof readMessageSchema>;

export class CatchUpProgressStore extends RedisStore {
  /** The progress of the catch-up that answers `triggerId`; null when none is kept (or it does not parse). */
  async load(key: ConversationKey, triggerId: string): Promise<CatchUpProgress | null> {
    const parsed = catchUpProgressSchema.safeParse(
      await this.redis.get<unknown>(catchUpKey(this.prefix, key, triggerId)),
    );
    return parsed.success ? parsed.data : null;
  }

  async save(key: ConversationKey, triggerId: string, progress: CatchUpProgress): Promise<void> {
    await this.redis.set(catchUpKey(this.prefix, key, triggerId), JSON.stringify(progress), {
      ex: PROGRESS_TTL_SECONDS,
    });
  }

  async drop(key: ConversationKey, triggerId: string): Promise<void> {
    await this.redis.del(catchUpKey(this.prefix, key, triggerId));
  }
}
