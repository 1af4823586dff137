/**
 * @module
 * The learned tier's stage-2 features, the ONE extraction the Worker and bench/decision/train.ts share: the bot's
 * candidate features (signals.ts), its standing against every other candidate scored by the stage-1 weights, what
 * the bot knows of its own last answer, and the live-inferred reply chains around the author (chains.ts).
 */
import type { ChannelView } from "./channel.ts";
import { CHAIN_FEATURES, chainFeatures, inferReplyChains } from "./chains.ts";
import { type BotMemory, CANDIDATE_FEATURES, candidateScore, linearScore, turnFeatures } from "./signals.ts";
import { BOT } from "./participants.ts";
import { log1p, readTurn } from "./turn.ts";

const RELATIVE_CAP = 6;

export const DECISION_FEATURES = [
  ...CANDIDATE_FEATURES,
  "candidate_score",
  "margin_over_best_other",
  "is_best",
  "log_competitors",
  "answered_author_last",
  "answered_author_in_window",
  ...CHAIN_FEATURES,
] as const;

export function decisionFeatures(view: ChannelView, memory: BotMemory, candidateWeights: readonly number[]): number[] {
  const last = view.messages.length - 1;
  const turn = readTurn(view, 0, last);
  const author = turn.author;
  const own = turnFeatures(turn, BOT);
  const ownScore = linearScore(candidateWeights, own);
  let bestOther = -Infinity;
  const others: number[] = [];
  for (let i = 0; i < last; i++) {
    const id = view.messages[i]!.author;
    if (id !== BOT && id !== author && !others.includes(id)) others.push(id);
  }
  for (const id of others) bestOther = Math.max(bestOther, candidateScore(turn, id, candidateWeights));
  const margin =
    others.length === 0 ? RELATIVE_CAP : Math.max(-RELATIVE_CAP, Math.min(RELATIVE_CAP, ownScore - bestOther));
  const answeredAuthor = memory.lastReplyTo.includes(view.current.authorId);
  const sinceReply = memory.lastReplyAt === undefined ? Infinity : view.current.ts - memory.lastReplyAt;
  return [
    ...own,
    ownScore,
    margin,
    margin > 0 ? 1 : 0,
    log1p(others.length),
    answeredAuthor ? 1 : 0,
    answeredAuthor && sinceReply <= memory.followupWindowMs ? 1 : 0,
    ...chainFeatures(view, inferReplyChains(view, candidateWeights)),
  ];
}
