/**
 * @module
 * The per-person reply rate limit, checked in the job before the model is called (never on the webhook's path).
 * Over the limit the bot says so once, then stays quiet until the window has passed.
 */
import type { ConversationKey } from "../message.ts";
import type { Runtime } from "../runtime.ts";
import { limitersFor } from "./limiters.ts";

export const RATE_LIMIT_NOTICE = "You're sending messages faster than I can answer; I'll be back in a minute.";

/** allowed: answer; notify: post RATE_LIMIT_NOTICE instead of an answer; quiet: post nothing. */
export type ReplyAllowance = "allowed" | "notify" | "quiet";

/** `|` never appears in the platform ids (see conversation/keys.ts). */
export function personId(key: ConversationKey, authorId: string): string {
  return [key.platform, key.tenant, authorId].join("|");
}

export async function checkReplyRate(rt: Runtime, key: ConversationKey, authorId: string): Promise<ReplyAllowance> {
  const person = personId(key, authorId);
  const verdict = await limitersFor(rt).replies.limit(person);
  if (verdict.success) return "allowed";
  // One notice per window: the first job over the limit wins the key, later ones find it taken.
  const quietSeconds = Math.max(1, Math.ceil((verdict.reset - rt.now()) / 1000));
  const first = await rt.redis.set(`${rt.settings.REDIS_KEY_PREFIX}:limit:told:${person}`, "1", { nx: true, ex: quietSeconds });
  rt.log.info("reply_rate_limited", { platform: key.platform, tenant: key.tenant, author: authorId, notice: first === "OK" });
  return first === "OK" ? "notify" : "quiet";
}
