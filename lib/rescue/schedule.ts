/**
 * @module
 * The webhook's side of a rescue: in a place with `/parley rescue on`, a person's question the decider left to
 * nobody (lib/rescue/questions.ts isOpenQuestion) gets ONE delayed job (QStash deduplicates it by the message's id),
 * which runs once the place's wait is over and steps in only if nobody answered (lib/rescue/job.ts). What it needs
 * was read in the ingest script's one round trip: the rescue adds no Redis command to the webhook.
 */
import type { Decision } from "../decide/index.ts";
import { isOpenQuestion } from "./questions.ts";
import type { BotIdentity, ConversationState, InboundMessage } from "../message.ts";
import type { JobOf, JobPayload } from "../queue/job.ts";
import type { PlaceSettings } from "../places/settings.ts";

/**
 * The rescue job of `msg` and when it runs, or null when it gets none. `fields` are the job's fields the place sets.
 */
export function rescueJobFor(
  msg: InboundMessage,
  state: ConversationState,
  bot: BotIdentity,
  decision: Decision,
  settings: PlaceSettings,
  defaults: { minutes: number },
  fields: Pick<JobPayload, "logIds" | "optOuts" | "visibility" | "feedback">,
): { job: JobOf<"rescue">; delaySeconds: number } | null {
  if (!settings.rescue || msg.noReply || !isOpenQuestion(msg, decision)) return null;
  return {
    job: {
      kind: "rescue",
      key: msg.key,
      // A question in a quiet place has no conversation: the job starts one if it steps in.
      conversationId: state.id || `rescue-${msg.id}`,
      trigger: { id: msg.id, ts: msg.ts, authorId: msg.author.id, authorName: msg.author.name },
      required: false,
      reason: "rescue",
      bot,
      replyTarget: msg.replyTarget,
      ...fields,
    },
    delaySeconds: (settings.rescueMinutes ?? defaults.minutes) * 60,
  };
}
