/**
 * @module
 * Reading the place when a conversation starts: the first answer of a conversation asks the platform once for what
 * was said there before the bot was called (lib/platforms/history.ts: the channel's last BACKFILL_MESSAGES of the
 * BACKFILL_MINUTES before the trigger, or a thread as it stands) and merges it into the conversation
 * (lib/conversation/backfill.ts), so that this answer, the follow-ups, the decider and the running summary see it as
 * if the bot had been there. Never on the webhook's path. The conversation is marked read whether or not the
 * platform allowed it, so the platform is asked once per start; a call that failed (or found the workspace's call
 * budget spent) leaves it unmarked, and the answer goes on without it. A refusal (a missing scope or permission) is
 * logged once per place per hour, naming what is missing.
 */
import { capMessageText } from "../limits/message-length.ts";
import { errorMessage } from "../log.ts";
import type { ConversationState, StoredMessage } from "../message.ts";
import type { PlaceMessage } from "../platforms/history.ts";
import type { Job } from "../queue/job.ts";
import { asStoredMessage } from "./parent.ts";
import type { JobScope } from "./scope.ts";

const MS_PER_MINUTE = 60_000;

/**
 * The conversation with the place's earlier messages in it, until it has them (its first answer) and where the platform
 * can say.
 */
export async function backfillConversation(scope: JobScope, state: ConversationState): Promise<ConversationState> {
  const { rt, job, replier, where } = scope;
  const s = rt.settings;
  if (state.backfilled || s.BACKFILL_MESSAGES === 0 || s.BACKFILL_MINUTES === 0) return state;
  try {
    const page = await replier.readHistory(job, {
      before: { id: job.trigger.id, ts: job.trigger.ts },
      triggerListed: job.reason !== "command",
      since: job.trigger.ts - s.BACKFILL_MINUTES * MS_PER_MINUTE,
      limit: s.BACKFILL_MESSAGES,
    });
    // A platform with nothing to read (SMS): no call, and no Redis command either.
    if (page === undefined) return state;
    if ("refused" in page) await logHistoryRefusal(scope, page.refused);
    const read = "messages" in page ? page.messages.map((m) => readAsStored(m, job, s.MAX_MESSAGE_CHARS)) : [];
    const merged = await rt.store.backfill.merge(job.key, job.conversationId, read, rt.now());
    if (merged.status !== "merged") return state;
    rt.log.info("history_read", { ...where, read: read.length, merged: merged.added.length });
    return { ...state, backfilled: true, recent: withMessages(state.recent, merged.added) };
  } catch (err) {
    // The answer goes on without it; the conversation's next answer asks again.
    rt.log.warn("history_unavailable", { ...where, error: errorMessage(err) });
    return state;
  }
}

/**
 * How a message read from the place is kept (and how a rescue reads it, lib/rescue/job.ts): the bot's own as its turns,
 * another bot's marked, cut like any.
 */
export function readAsStored(m: PlaceMessage, job: Job, maxChars: number): StoredMessage {
  const stored = asStoredMessage({ ...m, text: capMessageText(m.text, maxChars) }, job);
  const otherBot = m.author.isBot && stored.role === "user";
  return {
    ...stored,
    ...(m.replyToId ? { replyToId: m.replyToId } : {}),
    backfilled: true,
    ...(otherBot ? { bot: true as const } : {}),
  };
}

/** The conversation's messages with `added` among them, in timestamp order (the trigger's place kept at a tie). */
function withMessages(recent: readonly StoredMessage[], added: readonly StoredMessage[]): StoredMessage[] {
  return [...added, ...recent].sort((a, b) => a.ts - b.ts);
}

/** A refused history read (here, or a rescue's), logged once per place per hour, naming what is missing. */
export async function logHistoryRefusal({ rt, job, where }: JobScope, missing: string): Promise<void> {
  if (await rt.toldOnce.historyRefusal(job.key)) rt.log.warn("history_refused", { ...where, missing });
}
