/**
 * @module
 * The response decider, a pure function over (conversation state, message, bot identity):
 * tier 1 explicit triggers always answer; tier 2 (the learned follow-up model) may answer; tier 3 defers to the
 * LLM judge when it is enabled and tier 2 is unsure; otherwise the bot stays quiet.
 */
import type { ConversationState } from "../conversation/types.ts";
import type { BotIdentity } from "../message.ts";
import { type ChannelView, readChannel } from "./channel.ts";
import { explicitTrigger } from "./explicit.ts";
import { JUDGE_THRESHOLD, RESPOND_THRESHOLD, replyProbability } from "./model.ts";
import type { DecidableMessage, DecideOptions, Decision } from "./reasons.ts";
import type { BotMemory } from "./signals.ts";

/** What the rules settle before the model runs: a decision, or the channel the model must read. */
export type RuleOutcome = { decision: Decision } | { view: ChannelView };

export function decideByRules(state: ConversationState, msg: DecidableMessage, bot: BotIdentity): RuleOutcome {
  if (msg.author.id === bot.userId) return { decision: { respond: "no", reason: "self" } };
  if (msg.author.isBot) return { decision: { respond: "no", reason: "other_bot" } };
  const explicit = explicitTrigger(msg, bot);
  if (explicit !== null) return { decision: { respond: "yes", reason: explicit } };
  if (!state.active || state.recent.length === 0) return { decision: { respond: "no", reason: "no_trigger" } };
  // A platform mention of anyone but the bot, or an opening "nick:" naming someone else, is for them.
  if (msg.mentions.length > 0) return { decision: { respond: "no", reason: "addressed_other" } };
  const view = readChannel(state, bot);
  const lead = view.current.leadId;
  if (lead !== null && lead !== bot.userId) return { decision: { respond: "no", reason: "addressed_other" } };
  return { view };
}

export function botMemory(state: ConversationState, opts: DecideOptions): BotMemory {
  return {
    lastReplyAt: state.lastBotReplyAt,
    lastReplyTo: state.lastBotReplyTo,
    followupWindowMs: opts.followupWindowSeconds * 1000,
  };
}

export function decideResponse(
  state: ConversationState,
  msg: DecidableMessage,
  bot: BotIdentity,
  opts: DecideOptions,
): Decision {
  const outcome = decideByRules(state, msg, bot);
  if ("decision" in outcome) return outcome.decision;
  const score = replyProbability(outcome.view, botMemory(state, opts));
  if (score >= RESPOND_THRESHOLD) return { respond: "yes", reason: "recent_followup", score };
  if (opts.useJudge && score >= JUDGE_THRESHOLD) return { respond: "judge", reason: "judge", score };
  return { respond: "no", reason: "no_trigger", score };
}
