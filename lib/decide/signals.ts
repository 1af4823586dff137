/**
 * @module
 * The learned tier's features: ONE extraction used by the Worker and by bench/decision/train.ts alike.
 * `candidateFeatures` reads any participant the same way (so every candidate addressee can be scored);
 * decision-features.ts adds what only the bot knows about itself and how it compares with the other candidates.
 */
import type { ChannelMessage, ChannelView } from "./channel.ts";
import {
  ADJACENT,
  ADJACENT_AFTER_AUTHOR,
  ADJACENT_TURNS,
  AUTHOR_TO,
  LAST_OVERLAP,
  LAST_SPOKE,
  RANK,
  SHARED_WORDS,
  TO_AUTHOR,
  TO_AUTHOR_SINCE,
  type Turn,
  addressedTo,
  log1p,
  readTurn,
} from "./turn.ts";

const OVERLAP_CAP = 4;

export const CANDIDATE_FEATURES = [
  "bias",
  "lead_candidate",
  "named_candidate",
  "lead_other",
  "named_other",
  "rank_1",
  "rank_2",
  "log_rank",
  "log_msgs_since",
  "log_minutes_since",
  "last_to_author",
  "last_to_other",
  "log_to_author",
  "author_prev_to_candidate",
  "log_author_to_candidate",
  "author_prev_to_other",
  "author_new",
  "spoke_since_author",
  "log_adjacent_turns",
  "overlap_last",
  "overlap_all",
  "last_is_question",
  "last_to_author_recent",
  "adjacent_after_author",
  "m_question",
  "m_log_len",
  "m_thanks",
  "m_answer_word",
  "log_speakers",
  "author_last_right_before_candidate",
  "nicked_candidate",
  "nicked_other",
  "log_others_to_author_since",
] as const;

function addressedElsewhere(m: ChannelMessage, id: number): boolean {
  return m.lead >= 0 && m.lead !== id;
}

function namesAnyoneBut(ids: readonly number[], a: number, b: number): boolean {
  for (const id of ids) if (id !== a && id !== b) return true;
  return false;
}

/**
 * Writes the symmetric features of "the turn's current message answers participant `candidate`" into `out`
 * (CANDIDATE_FEATURES order). The chains score a dozen candidates per inferred link: filling one buffer spares
 * the allocations.
 */
function fillCandidateFeatures(turn: Turn, candidate: number, out: { [i: number]: number }): void {
  const { view, start, at: n, current, author, speakers, lastAuthor, counts, stride } = turn;
  const messages = view.messages;
  const lastCandidate = counts[LAST_SPOKE * stride + candidate]!;
  const toAuthor = counts[TO_AUTHOR * stride + candidate]!;
  const authorToCandidate = counts[AUTHOR_TO * stride + candidate]!;
  const adjacentTurns = counts[ADJACENT_TURNS * stride + candidate]!;
  const adjacentAfterAuthor = counts[ADJACENT_AFTER_AUTHOR * stride + candidate]!;
  const othersToAuthorSince = turn.toAuthorSince - counts[TO_AUTHOR_SINCE * stride + candidate]!;
  const sharedCount = counts[SHARED_WORDS * stride + candidate]!;
  const lastOverlap = counts[LAST_OVERLAP * stride + candidate]!;
  const last = lastCandidate >= 0 ? messages[lastCandidate] : undefined;
  const authorPrev = lastAuthor >= 0 ? messages[lastAuthor] : undefined;
  const rank = counts[RANK * stride + candidate]! || speakers.length + 1;
  const msgsSince = lastCandidate >= 0 ? n - lastCandidate - 1 : n - start;
  const minutesSince = last ? Math.max(0, current.ts - last.ts) / 60_000 : 60;
  const lastToAuthor = last !== undefined && addressedTo(last, author) ? 1 : 0;
  out[0] = 1;
  out[1] = current.lead === candidate ? 1 : 0;
  out[2] = addressedTo(current, candidate) ? 1 : 0;
  out[3] = addressedElsewhere(current, candidate) ? 1 : 0;
  out[4] = namesAnyoneBut(current.named, candidate, author) ? 1 : 0;
  out[5] = rank === 1 ? 1 : 0;
  out[6] = rank === 2 ? 1 : 0;
  out[7] = Math.log(rank);
  out[8] = log1p(msgsSince);
  out[9] = log1p(minutesSince);
  out[10] = lastToAuthor;
  out[11] = last !== undefined && addressedElsewhere(last, author) ? 1 : 0;
  out[12] = log1p(toAuthor);
  out[13] = authorPrev !== undefined && addressedTo(authorPrev, candidate) ? 1 : 0;
  out[14] = log1p(authorToCandidate);
  out[15] = authorPrev !== undefined && addressedElsewhere(authorPrev, candidate) ? 1 : 0;
  out[16] = authorPrev === undefined ? 1 : 0;
  out[17] = lastCandidate > lastAuthor && lastAuthor >= 0 ? 1 : 0;
  out[18] = log1p(adjacentTurns + adjacentAfterAuthor);
  out[19] = last ? Math.min(lastOverlap, OVERLAP_CAP) : 0;
  out[20] = Math.min(sharedCount, OVERLAP_CAP);
  out[21] = last?.isQuestion ? 1 : 0;
  out[22] = lastToAuthor && msgsSince <= ADJACENT ? 1 : 0;
  out[23] = log1p(adjacentAfterAuthor);
  out[24] = current.isQuestion ? 1 : 0;
  out[25] = turn.logLength;
  out[26] = turn.thanks;
  out[27] = turn.answerWord;
  out[28] = log1p(speakers.length);
  out[29] = lastAuthor >= 0 && lastCandidate > lastAuthor && lastCandidate - lastAuthor <= ADJACENT ? 1 : 0;
  out[30] = current.nicked.includes(candidate) ? 1 : 0;
  out[31] = namesAnyoneBut(current.nicked, candidate, candidate) ? 1 : 0;
  out[32] = log1p(othersToAuthorSince);
}

/** Features of the turn's current message answering `candidate`, in CANDIDATE_FEATURES order. */
export function turnFeatures(turn: Turn, candidate: number): number[] {
  const out = new Array<number>(CANDIDATE_FEATURES.length);
  fillCandidateFeatures(turn, candidate, out);
  return out;
}

/** Symmetric features of "the view's current message answers `candidate`" (a participant id). */
export function candidateFeatures(view: ChannelView, candidate: string): number[] {
  const last = view.messages.length - 1;
  // Someone the view never saw gets an index no message carries.
  return turnFeatures(readTurn(view, 0, last), view.indexOf.get(candidate) ?? view.ids.length);
}

const scoreScratch = new Float64Array(CANDIDATE_FEATURES.length);

/** The stage-1 score of `candidate` (weights over its features), without building the feature list. */
export function candidateScore(turn: Turn, candidate: number, weights: ArrayLike<number>): number {
  fillCandidateFeatures(turn, candidate, scoreScratch);
  return linearScore(weights, scoreScratch);
}

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

export function linearScore(weights: ArrayLike<number>, features: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < features.length; i++) sum += (weights[i] ?? 0) * features[i]!;
  return sum;
}

/** What the bot itself knows: whom its last answer was for, and when. */
export interface BotMemory {
  lastReplyAt: number | undefined;
  lastReplyTo: readonly string[];
  followupWindowMs: number;
}
