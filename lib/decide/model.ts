/**
 * @module
 * The learned tier: a logistic regression over `decisionFeatures`, with the weights and thresholds that
 * bench/decision/train.ts fitted on the train split of the irc-replies corpus.
 */
import type { ChannelView } from "./channel.ts";
import { type BotMemory, decisionFeatures, linearScore } from "./signals.ts";
import { CANDIDATE_WEIGHTS, DECISION_WEIGHTS } from "./weights.ts";

export { JUDGE_THRESHOLD, RESPOND_THRESHOLD } from "./weights.ts";

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** Probability that the current message answers the bot. */
export function replyProbability(view: ChannelView, memory: BotMemory): number {
  return sigmoid(linearScore(DECISION_WEIGHTS, decisionFeatures(view, memory, CANDIDATE_WEIGHTS)));
}
