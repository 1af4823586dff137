/**
 * @module
 * Whether this is the first attempt at a message for a limit: QStash retries a job after a failed model call or
 * post, and a retry must not spend a person's or a conversation's allowance a second time.
 */
import { firstAttemptKey, type LimitName } from "../keys.ts";
import type { ConversationKey } from "../message.ts";
import type { Runtime } from "../runtime.ts";

/** Long enough to outlive every QStash retry of one job. */
const MARK_TTL_SECONDS = 3_600;

export async function firstAttempt(rt: Runtime, limit: LimitName, key: ConversationKey, messageId: string): Promise<boolean> {
  const mark = firstAttemptKey(rt.settings.REDIS_KEY_PREFIX, limit, key, messageId);
  return (await rt.redis.set(mark, "1", { nx: true, ex: MARK_TTL_SECONDS })) === "OK";
}
