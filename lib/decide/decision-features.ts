/**
 * @module
 * The learned tier's stage-2 features, the ONE extraction the Worker and bench/decision/train.ts share: the bot's
 * candidate features (signals.ts), its standing against every other candidate scored by the stage-1 weights, what
 * the bot knows of its own last answer, and the live-inferred reply chains around the author (chains.ts).
 */
import type { ChannelView } from "./channel.ts";
import { CHAIN_FEATURES, chainFeatures, inferReplyChains } from "./chains.ts";
import { type BotMemory, CANDIDATE_FEATURES, candidateFeatures, candidateScore, linearScore, log1p } from "./signals.ts";

const RELATIVE_CAP = 6;

export const DECISION_FEATURES = [
  ...CANDIDATE_FEATURES,
  "candidate_score", "margin_over_best_other", "is_best", "log_competitors", "answered_author_last",
  "answered_author_in_window", ...CHAIN_FEATURES,
] as const;

export function decisionFeatures(view: ChannelView, memory: BotMemory, candidateWeights: readonly number[]): number[] {
  const bot = view.botId;
  const author = view.current.authorId;
  const own = candidateFeatures(view, bot);
  const ownScore = linearScore(candidateWeights, own);
  let bestOther = -Infinity;
  const others = new Set<string>();
  for (let i = 0; i < view.messages.length - 1; i++) {
    const id = view.messages[i]!.authorId;
    if (id !== bot && id !== author) others.add(id);
  }
  for (const id of others) bestOther = Math.max(bestOther, candidateScore(view, id, candidateWeights));
  const margin = others.size === 0 ? RELATIVE_CAP : Math.max(-RELATIVE_CAP, Math.min(RELATIVE_CAP, ownScore - bestOther));
  const answeredAuthor = memory.lastReplyTo.includes(author);
  const sinceReply = memory.lastReplyAt === undefined ? Infinity : view.current.ts - memory.lastReplyAt;
  return [
    ...own,
    ownScore,
    margin,
    margin > 0 ? 1 : 0,
    log1p(others.size),
    answeredAuthor ? 1 : 0,
    answeredAuthor && sinceReply <= memory.followupWindowMs ? 1 : 0,
    ...chainFeatures(view, inferReplyChains(view, candidateWeights)),
  ];
}
