/**
 * @module
 * The learned tier: boosted trees over `decisionFeatures` (whose stage-1 candidate scores, and the reply chains
 * inferred from them, are a logistic regression), with the weights, trees and thresholds that
 * bench/decision/train.ts fitted and chose on the train split of the irc-replies corpus.
 */
import type { ChannelView } from "./channel.ts";
import { decisionFeatures } from "./decision-features.ts";
import { type BotMemory, sigmoid } from "./signals.ts";
import { treeScore } from "./trees.ts";
import { CALIBRATION, CANDIDATE_WEIGHTS, DECISION_TREES } from "./weights.ts";

export { CONTINUATION_FLOOR, JUDGE_THRESHOLD, RESPOND_THRESHOLD } from "./weights.ts";

/**
 * Probability that the current message answers the bot: the trees' log-odds through the Platt calibration fitted
 * out of fold, so that a score means the same on channels the trees never saw.
 */
export function replyProbability(view: ChannelView, memory: BotMemory): number {
  const logOdds = treeScore(DECISION_TREES, decisionFeatures(view, memory, CANDIDATE_WEIGHTS));
  // A few log-odds reach far into the tails; clipped, one slope fits the middle, where the threshold sits.
  const clipped = Math.max(-CALIBRATION.clip, Math.min(CALIBRATION.clip, logOdds));
  return sigmoid(CALIBRATION.slope * clipped + CALIBRATION.intercept);
}
