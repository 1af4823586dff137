/**
 * @module
 * Which part of a conversation an answer is for. A job reads the conversation when it runs, so one answer covers
 * a burst: the "current" message is the trigger author's latest answerable message, everything before it is
 * history, and whatever came later waits for its own job.
 */
import type { StoredMessage } from "./types.ts";

export interface Turn {
  history: StoredMessage[];
  current: StoredMessage;
  /** Author ids of the people this answer is for. */
  answered: string[];
}

/** null when the trigger is no longer in the conversation (dropped by the cap). */
export function selectTurn(recent: StoredMessage[], trigger: { id: string; ts: number; authorId: string }): Turn | null {
  let currentIndex = recent.findIndex((m) => m.id === trigger.id);
  for (let i = recent.length - 1; i > currentIndex; i--) {
    if (recent[i]!.authorId === trigger.authorId && recent[i]!.role === "user" && !recent[i]!.noReply) {
      currentIndex = i;
      break;
    }
  }
  if (currentIndex < 0) return null;
  const current = recent[currentIndex]!;
  return { history: recent.slice(0, currentIndex), current, answered: [current.authorId] };
}
