/**
 * @module
 * The response decider, a pure function over (conversation state, message, bot identity):
 * tier 1 explicit triggers always answer; tier 2 (the learned follow-up model) may answer; tier 3 defers to the
 * LLM judge when it is enabled and tier 2 is unsure; otherwise the bot stays quiet.
 */
import type { ConversationState } from "../conversation/types.ts";
import type { BotIdentity } from "../message.ts";
import { JUDGE_THRESHOLD, RESPOND_THRESHOLD, replyProbability } from "./model.ts";
import { explicitTrigger } from "./explicit.ts";
import type { DecidableMessage, DecideOptions, Decision, DecisionReason } from "./reasons.ts";
import { questionRightAfterBot } from "./follows-bot.ts";
import { botMemory, decideByRules } from "./rules.ts";

/** `explicit` is `explicitTrigger(msg, bot)` when the caller already has it (the pipeline needs it before Redis). */
export function decideResponse(
  state: ConversationState,
  msg: DecidableMessage,
  bot: BotIdentity,
  opts: DecideOptions,
  explicit: DecisionReason | null = explicitTrigger(msg, bot),
): Decision {
  const outcome = decideByRules(state, msg, bot, explicit);
  if ("decision" in outcome) return outcome.decision;
  const score = replyProbability(outcome.view, botMemory(state, opts));
  if (score >= RESPOND_THRESHOLD) return { respond: "yes", reason: "recent_followup", score };
  if (opts.useJudge && (score >= JUDGE_THRESHOLD || questionRightAfterBot(state, msg, bot, opts.followupWindowSeconds * 1000))) {
    return { respond: "judge", reason: "judge", score };
  }
  return { respond: "no", reason: "no_trigger", score };
}
