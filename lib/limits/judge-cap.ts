/**
 * @module
 * A per-conversation cap on judge calls per minute: a busy channel where nobody addresses the bot must not turn
 * every message into a model call. Over the cap the judge answers NO without asking the model.
 */
import type { ConversationKey } from "../message.ts";
import { placeId } from "../keys.ts";
import type { Runtime } from "../runtime.ts";
import { limitersFor } from "./limiters.ts";

/** `first`: no earlier attempt of the job got this far (the trigger's reply record says so: lib/delivery.ts). */
export async function judgeWithinCap(rt: Runtime, key: ConversationKey, first: boolean, askJudge: () => Promise<boolean>): Promise<boolean> {
  // A retried judge job was already counted when it first asked.
  if (!first) return askJudge();
  const verdict = await limitersFor(rt).judge.limit(placeId(key));
  if (!verdict.success) {
    rt.log.info("judge_capped", { platform: key.platform, tenant: key.tenant, channel: key.channel });
    return false;
  }
  return askJudge();
}
