/**
 * @module
 * The decider's rules, before any model: who never triggers it, the explicit triggers (tier 1), and messages
 * plainly addressed to someone else. Whatever they leave open goes to the learned tier with the channel view.
 */
import type { ConversationState } from "../conversation/types.ts";
import type { BotIdentity } from "../message.ts";
import { type ChannelView, readChannel } from "./channel.ts";
import { explicitTrigger } from "./explicit.ts";
import type { DecidableMessage, DecideOptions, Decision, DecisionReason } from "./reasons.ts";
import type { BotMemory } from "./signals.ts";

/** What the rules settle before the model runs: a decision, or the channel the model must read. */
export type RuleOutcome = { decision: Decision } | { view: ChannelView };

export function decideByRules(
  state: ConversationState,
  msg: DecidableMessage,
  bot: BotIdentity,
  explicit: DecisionReason | null = explicitTrigger(msg, bot),
): RuleOutcome {
  if (msg.author.id === bot.userId) return { decision: { respond: "no", reason: "self" } };
  if (msg.author.isBot) return { decision: { respond: "no", reason: "other_bot" } };
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
