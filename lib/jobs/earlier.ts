/**
 * @module
 * What was said in a place before its conversation began, for the prompt, where the platform cannot be asked
 * (lib/platforms/adapter.ts keepHistory): the messages the ingest script kept there, written in the BACKFILL_MINUTES
 * before the conversation started, the last BACKFILL_MESSAGES of them, without anyone who asked to be forgotten
 * since. Read for each answer of the conversation (a GET, and an MGET of the authors' forget marks), never stored
 * with the conversation: the memory job, which reads the conversation alone, learns no facts from them.
 */
import { forgottenKey } from "../keys.ts";
import { errorMessage } from "../log.ts";
import type { ConversationState, StoredMessage } from "../message.ts";
import type { JobScope } from "./scope.ts";

const MS_PER_MINUTE = 60_000;

export async function earlierMessages({ rt, job, where }: JobScope, state: ConversationState): Promise<StoredMessage[]> {
  const s = rt.settings;
  if (!job.keptHistory || s.BACKFILL_MESSAGES === 0) return [];
  try {
    const window = { since: state.startedAt - s.BACKFILL_MINUTES * MS_PER_MINUTE, before: state.startedAt, limit: s.BACKFILL_MESSAGES };
    const inConversation = new Set(state.recent.map((m) => m.id));
    const kept = (await rt.store.kept.between(job.key, window)).filter((m) => !inConversation.has(m.id));
    const authors = [...new Set(kept.map((m) => m.authorId))];
    if (authors.length === 0) return [];
    const marks = await rt.redis.mget<(string | number | null)[]>(...authors.map((a) => forgottenKey(s.REDIS_KEY_PREFIX, job.key, a)));
    const forgottenAt = new Map(authors.map((a, i) => [a, marks[i] === null || marks[i] === undefined ? -Infinity : Number(marks[i])]));
    return kept.filter((m) => m.ts > forgottenAt.get(m.authorId)!);
  } catch (err) {
    // The answer goes on without them.
    rt.log.warn("earlier_messages_unavailable", { ...where, error: errorMessage(err) });
    return [];
  }
}
