/**
 * @module
 * The rescue job's view of the platforms (as ./replier.ts is the answer's): the rescue capability of the job's
 * platform (./rescue.ts), for its tenant and question; null where the platform has none.
 */
import type { ConversationKey, ReplyTarget } from "../message.ts";
import type { Job } from "../queue/job.ts";
import type { PlatformAdapter } from "./adapter.ts";
import { replyContext, type PlatformServices } from "./context.ts";
import type { QuestionHistory, RescuedQuestion } from "./rescue.ts";

/** The rescue capability for one job's question. */
export interface Rescuer {
  under(): { key: ConversationKey; target: ReplyTarget };
  history(until: number): Promise<QuestionHistory>;
}

export function platformRescuer(rt: PlatformServices, adapters: readonly PlatformAdapter[], job: Job): Rescuer | null {
  const adapter = adapters.find((a) => a.platform === job.key.platform);
  const rescue = adapter?.rescue;
  if (!adapter || !rescue) return null;
  const question: RescuedQuestion = {
    key: job.key,
    id: job.trigger.id,
    ts: job.trigger.ts,
    target: adapter.replyTargetSchema.parse(job.replyTarget),
    bot: job.bot,
  };
  return {
    under: () => rescue.under(question),
    history: (until) => rescue.history(replyContext(rt, adapter, job.key.tenant), question, until),
  };
}
