/**
 * @module
 * Which part of a conversation an answer is for. A job reads the conversation when it runs, so one answer covers
 * a burst: the "current" message is the trigger author's latest answerable message, everything before it is
 * history, and whatever came later waits for its own job.
 */
import type { StoredMessage } from "../message.ts";

export interface Turn {
  history: StoredMessage[];
  current: StoredMessage;
  /** Author ids of the people this answer is for. */
  answered: string[];
}

/**
 * null when the trigger is no longer in the conversation (dropped by the cap). `answeredThrough`: the newest of the
 * author's messages an answer was for; a later message of theirs up to it was answered already, so a trigger that
 * arrived late is answered for itself.
 */
export function selectTurn(
  recent: StoredMessage[],
  trigger: { id: string; ts: number; authorId: string },
  answeredThrough = -Infinity,
): Turn | null {
  let currentIndex = recent.findIndex((m) => m.id === trigger.id);
  for (let i = recent.length - 1; i > currentIndex; i--) {
    const m = recent[i]!;
    if (m.authorId === trigger.authorId && m.role === "user" && !m.noReply && m.ts > answeredThrough) {
      currentIndex = i;
      break;
    }
  }
  if (currentIndex < 0) return null;
  const current = recent[currentIndex]!;
  // A reaction recorded as feedback has no words for the model.
  const history = recent.slice(0, currentIndex).filter((m) => m.feedback === undefined);
  return { history, current, answered: [current.authorId] };
}
