/**
 * @module
 * Initiative: where a place allows it (lib/places/settings.ts), a message in a conversation the bot is part of that
 * the rules found addressed to nobody (not to another person, not a reply to someone else, not chatter between
 * two: the decider's `no_trigger` after its model ran) may go to the model with [SKIP] allowed, when the model's
 * score clears the threshold the place's eagerness sets. So may one the decider would hand to the LLM judge: the
 * judge asks "is this for the bot?", which no longer matters where the bot may join in anyway (and its call is saved).
 * Never while anyone's "not you" is within the follow-up
 * window. The hourly cap and "never twice in a row" are the job's (lib/limits/initiative-cap.ts).
 */
import type { ConversationState } from "../message.ts";
import { RESPOND_THRESHOLD } from "./model.ts";
import { normalizeText } from "./names.ts";
import { saysNotYou } from "./not-you.ts";
import type { Decision } from "./reasons.ts";

export interface InitiativeSetting {
  initiative: boolean;
  /** 0-100. */
  eagerness: number;
}

/**
 * The score an addressed-to-nobody message needs: RESPOND_THRESHOLD at eagerness 0 (where the decider answers
 * anyway, so nothing changes), falling linearly to 0 at 100 (every such message).
 */
export function initiativeThreshold(eagerness: number): number {
  return RESPOND_THRESHOLD * (1 - Math.min(100, Math.max(0, eagerness)) / 100);
}

/**
 * Whether anyone told the bot "not you" (words or a 👎) within `windowMs` before the message at hand (last in `recent`).
 */
function notYouLately(state: ConversationState, windowMs: number): boolean {
  const recent = state.recent;
  const now = recent[recent.length - 1]?.ts ?? 0;
  for (let i = recent.length - 2; i >= 0; i--) {
    const m = recent[i]!;
    if (now - m.ts > windowMs) return false;
    if (m.feedback === "not_you" || (m.role === "user" && saysNotYou(normalizeText(m.text)))) return true;
  }
  return false;
}

/** The decision turned into an unprompted answer (reason `initiative`, never required), or null to keep it. */
export function takeInitiative(
  decision: Decision,
  state: ConversationState,
  setting: InitiativeSetting,
  windowMs: number,
): Decision | null {
  if (!setting.initiative || setting.eagerness <= 0) return null;
  const leftToNobody = (decision.respond === "no" && decision.reason === "no_trigger") || decision.respond === "judge";
  if (!leftToNobody || decision.score === undefined) return null;
  if (decision.score < initiativeThreshold(setting.eagerness) || notYouLately(state, windowMs)) return null;
  return { respond: "yes", reason: "initiative", score: decision.score };
}
