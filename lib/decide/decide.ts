/**
 * @module
 * The response decider, a pure function over (conversation state, message, bot identity):
 * tier 1 explicit triggers always answer; tier 2 (the learned follow-up model) may answer, and so may a strong
 * continuation of the bot's own answer (continuation.ts); tier 3 defers to the LLM judge when it is enabled and
 * neither is sure; otherwise the bot stays quiet.
 */
import type { BotIdentity, ConversationState } from "../message.ts";
import { continuation } from "./continuation.ts";
import { explicitTrigger } from "./explicit.ts";
import { CONTINUATION_FLOOR, JUDGE_THRESHOLD, RESPOND_THRESHOLD, replyProbability } from "./model.ts";
import type { DecidableMessage, DecideOptions, Decision, DecisionReason } from "./reasons.ts";
import { botMemory, decideByRules } from "./rules.ts";

/** `explicit` is `explicitTrigger(msg, bot)` when the caller already has it (the pipeline needs it before Redis). */
export function decideResponse(
  state: ConversationState,
  msg: DecidableMessage,
  bot: BotIdentity,
  opts: DecideOptions,
  explicit: DecisionReason | null = explicitTrigger(msg, bot),
): Decision {
  const outcome = decideByRules(state, msg, bot, opts, explicit);
  if ("decision" in outcome) return outcome.decision;
  const score = replyProbability(outcome.view, botMemory(state, opts));
  if (score >= RESPOND_THRESHOLD) return { respond: "yes", reason: "recent_followup", score };
  const continues = continuation(outcome.view, state.lastBotReplyTo, opts.followupWindowSeconds * 1000);
  if (opts.useJudge && (continues !== null || score >= JUDGE_THRESHOLD))
    return { respond: "judge", reason: "judge", score };
  // The path answers alone only from a floor chosen with the threshold on train (cross-validated).
  if (continues === "strong" && score >= CONTINUATION_FLOOR) return { respond: "yes", reason: "continuation", score };
  return { respond: "no", reason: "no_trigger", score };
}
