/**
 * @module
 * The decider's rules, before any model: who never triggers it, "not you" feedback and the quiet after it, the
 * explicit triggers (tier 1), and messages plainly addressed to someone else. Whatever they leave open goes to the
 * learned tier with the channel view.
 */
import type { BotIdentity, ConversationState } from "../message.ts";
import { type ChannelReader, type ChannelView, channelReader, currentLeadId, readView } from "./channel.ts";
import { explicitTrigger } from "./explicit.ts";
import { normalizeText } from "./names.ts";
import { saysNotYou, toldNotYou } from "./not-you.ts";
import type { DecidableMessage, DecideOptions, Decision, DecisionReason } from "./reasons.ts";
import type { BotMemory } from "./signals.ts";

/** What the rules settle before the model runs: a decision, or the channel the model must read. */
export type RuleOutcome = { decision: Decision } | { view: ChannelView };

/** Explicit ways of reaching the bot that "not you" words cannot come through (a slash command, a DM). */
const UNMISTAKABLE: ReadonlySet<DecisionReason> = new Set(["dm", "command"]);
/**
 * Someone not yet in the conversation addressed by name: "Carol, are you coming?", "hey Bob did you…".
 * Capitalised, after a greeting or set off by a comma before a question; the words people open sentences with are not
 * names.
 */
const VOCATIVE_STRANGER = new RegExp(
  String.raw`^\s*(?:(?:hey|hi|hello)\s+@?([A-Z][\p{L}\p{N}_-]+)\b|@?([A-Z][\p{L}\p{N}_-]+),\s+` +
    String.raw`(?:are|do|did|can|could|would|will|have|you|want|how|what|when|where|why|which|who|is|any)\b)`,
  "u",
);
const NOT_NAMES = new Set(
  (
    "yes yeah yep no nope sure ok okay well so hey hi hello thanks also and but oh right wait actually honestly " +
    "anyway btw great cool nice perfect sorry please guys everyone folks all ah hmm alright then now"
  ).split(" "),
);

export function addressesStranger(text: string): boolean {
  const match = VOCATIVE_STRANGER.exec(text);
  const token = match?.[1] ?? match?.[2];
  return token !== undefined && !NOT_NAMES.has(normalizeText(token));
}

/** A platform reply to someone who spoke since the bot's latest turn: it is for them (a thread's opener is not). */
function repliesToOther(reader: ChannelReader, msg: DecidableMessage): boolean {
  const to = msg.replyToAuthorId;
  if (to === undefined || to === reader.botId || to === msg.author.id) return false;
  for (let i = reader.recent.length - 2; i >= 0; i--) {
    const m = reader.recent[i]!;
    if (m.authorId === reader.botId) return false;
    if (m.authorId === to) return true;
  }
  return false;
}

export function decideByRules(
  state: ConversationState,
  msg: DecidableMessage,
  bot: BotIdentity,
  opts: DecideOptions,
  explicit: DecisionReason | null = explicitTrigger(msg, bot),
): RuleOutcome {
  if (msg.author.id === bot.userId) return { decision: { respond: "no", reason: "self" } };
  if (msg.author.isBot) return { decision: { respond: "no", reason: "other_bot" } };
  if (msg.feedback === "not_you") return { decision: { respond: "no", reason: "not_you" } };
  const windowMs = opts.followupWindowSeconds * 1000;
  const answeredLately = state.lastBotReplyAt !== undefined && msg.ts - state.lastBotReplyAt <= windowMs;
  if ((explicit === null ? answeredLately : !UNMISTAKABLE.has(explicit)) && saysNotYou(normalizeText(msg.text))) {
    return { decision: { respond: "no", reason: "not_you" } };
  }
  if (explicit !== null) return { decision: { respond: "yes", reason: explicit } };
  if (!state.active || state.recent.length === 0) return { decision: { respond: "no", reason: "no_trigger" } };
  // A platform mention of anyone but the bot, or a message addressing someone else by name, is for them.
  if (msg.mentions.length > 0) return { decision: { respond: "no", reason: "addressed_other" } };
  // Whom the message addresses needs only the participants and the message itself: a third of the messages
  // the rules settle are for someone else, and they spare reading the channel's words.
  const reader = channelReader(state, bot);
  const lead = currentLeadId(reader);
  if ((lead !== null && lead !== bot.userId) || addressesStranger(msg.text) || repliesToOther(reader, msg)) {
    return { decision: { respond: "no", reason: "addressed_other" } };
  }
  if (toldNotYou(state, bot, windowMs)) return { decision: { respond: "no", reason: "told_not_you" } };
  return { view: readView(reader) };
}

export function botMemory(state: ConversationState, opts: DecideOptions): BotMemory {
  return {
    lastReplyAt: state.lastBotReplyAt,
    lastReplyTo: state.lastBotReplyTo,
    followupWindowMs: opts.followupWindowSeconds * 1000,
  };
}
