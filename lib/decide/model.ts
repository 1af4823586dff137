/**
 * @module
 * The learned tier: boosted trees over `decisionFeatures` (whose stage-1 candidate scores, and the reply chains
 * inferred from them, are a logistic regression), with the weights, trees and thresholds that
 * bench/decision/train.ts fitted on the train split of the irc-replies corpus.
 */
import type { ChannelView } from "./channel.ts";
import { decisionFeatures } from "./decision-features.ts";
import { type BotMemory, sigmoid } from "./signals.ts";
import { treeScore } from "./trees.ts";
import { CANDIDATE_WEIGHTS, DECISION_TREES } from "./weights.ts";

export { JUDGE_THRESHOLD, RESPOND_THRESHOLD } from "./weights.ts";

/** Probability that the current message answers the bot. */
export function replyProbability(view: ChannelView, memory: BotMemory): number {
  return sigmoid(treeScore(DECISION_TREES, decisionFeatures(view, memory, CANDIDATE_WEIGHTS)));
}
