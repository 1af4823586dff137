/**
 * @module
 * The bounds of an unprompted answer (lib/decide/initiative.ts), checked by its job before the prompt is built:
 * never when the bot has spoken since the message it would answer (two unprompted answers always have a person's
 * message between them, even when two arrive before either job runs), and at most INITIATIVE_MAX_PER_HOUR per
 * place (its channel, threads included), counted once per trigger, on its job's first attempt.
 */
import { channelId } from "../keys.ts";
import { jobLogFields } from "../log-ids.ts";
import type { ConversationState } from "../message.ts";
import type { JobPayload } from "../queue/job.ts";
import type { Services } from "../services.ts";
import type { Limiters } from "./limiters.ts";

/** Whether the bot has spoken in the conversation since `ts`. */
function spokeSince(state: ConversationState, botId: string, ts: number): boolean {
  return (
    (state.lastBotReplyAt !== undefined && state.lastBotReplyAt >= ts) ||
    state.recent.some((m) => m.authorId === botId && m.ts >= ts)
  );
}

/** `first`: no earlier attempt of the job got this far (lib/jobs/attempt.ts), so the trigger is not counted yet. */
export async function initiativeFits(
  rt: Services & { limiters: Limiters },
  job: JobPayload,
  state: ConversationState,
  first: boolean,
): Promise<boolean> {
  if (spokeSince(state, job.bot.userId, job.trigger.ts)) {
    rt.log.info("initiative_held", { ...(await jobLogFields(rt, job)), why: "bot_spoke_since" });
    return false;
  }
  if (!first) return true;
  const verdict = await rt.limiters.initiative.limit(channelId(job.key));
  if (verdict.success) return true;
  rt.log.info("initiative_held", { ...(await jobLogFields(rt, job)), why: "hourly_cap" });
  return false;
}
