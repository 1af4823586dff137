/**
 * @module
 * The learned tier's features: ONE extraction used by the Worker and by bench/decision/train.ts alike.
 * `candidateFeatures` reads any participant the same way (so every candidate addressee can be scored);
 * decision-features.ts adds what only the bot knows about itself and how it compares with the other candidates.
 */
import type { ChannelMessage, ChannelView } from "./channel.ts";

/** Replies sit close to what they answer; beyond this many messages a "just after" link means little. */
const ADJACENT = 3;
const OVERLAP_CAP = 4;
const THANKS = /^(thanks|thank|thx|ty|tnx|cheers)\b/u;
const ANSWER_WORD = /^(yes|yeah|yep|no|nope|ok|okay|k|sure|right|it|that|i|hmm|oh|ah|well)\b/u;

export const CANDIDATE_FEATURES = [
  "bias", "lead_candidate", "named_candidate", "lead_other", "named_other", "rank_1", "rank_2", "log_rank",
  "log_msgs_since", "log_minutes_since", "last_to_author", "last_to_other", "log_to_author", "author_prev_to_candidate",
  "log_author_to_candidate", "author_prev_to_other", "author_new", "spoke_since_author", "log_adjacent_turns",
  "overlap_last", "overlap_all", "last_is_question", "last_to_author_recent", "adjacent_after_author",
  "m_question", "m_log_len", "m_thanks", "m_answer_word", "log_speakers", "author_last_right_before_candidate",
  "nicked_candidate", "nicked_other", "log_others_to_author_since",
] as const;

export function log1p(x: number): number {
  return Math.log(1 + x);
}

function overlap(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return Math.min(shared, OVERLAP_CAP);
}

function addressedTo(m: ChannelMessage, id: string): boolean {
  return m.namedIds.has(id) || m.nickedIds.has(id);
}

function addressedElsewhere(m: ChannelMessage, id: string): boolean {
  return m.leadId !== null && m.leadId !== id;
}

function namesAnyoneBut(ids: Set<string>, a: string, b: string): boolean {
  for (const id of ids) if (id !== a && id !== b) return true;
  return false;
}

/**
 * The speakers before the current message other than its author, most recent first. Every candidate of one view
 * reads the same list: it is computed once per view.
 */
const recencyOf = new WeakMap<ChannelView, string[]>();
function speakersByRecency(view: ChannelView): string[] {
  let speakers = recencyOf.get(view);
  if (speakers !== undefined) return speakers;
  speakers = [];
  const author = view.current.authorId;
  for (let i = view.messages.length - 2; i >= 0; i--) {
    const id = view.messages[i]!.authorId;
    if (id !== author && !speakers.includes(id)) speakers.push(id);
  }
  recencyOf.set(view, speakers);
  return speakers;
}

/** What every candidate of one view reads the same of its current message: computed once per view. */
interface CurrentMessage {
  /** Its content words, in one array every candidate's overlap walks. */
  words: string[];
  logLength: number;
  thanks: number;
  answerWord: number;
}
const currentOf = new WeakMap<ChannelView, CurrentMessage>();
function currentMessage(view: ChannelView): CurrentMessage {
  let read = currentOf.get(view);
  if (read === undefined) {
    const text = view.current.normalized.trimStart();
    read = {
      words: [...view.current.contentWords],
      logLength: log1p(view.current.normalized.length) / 5,
      thanks: THANKS.test(text) ? 1 : 0,
      answerWord: ANSWER_WORD.test(text) ? 1 : 0,
    };
    currentOf.set(view, read);
  }
  return read;
}

/** Which of the current message's words the candidate's messages share, marked per word; reused between calls. */
let sharedScratch = new Uint8Array(64);

/**
 * Writes the symmetric features of "the current message answers `candidate`" into `out` (CANDIDATE_FEATURES
 * order). The chains score a dozen candidates per inferred link: filling one buffer spares the allocations.
 */
function fillCandidateFeatures(view: ChannelView, candidate: string, out: { [i: number]: number }): void {
  const { messages, current } = view;
  const n = messages.length - 1;
  const author = current.authorId;
  const read = currentMessage(view);
  const words = read.words;
  if (sharedScratch.length < words.length) sharedScratch = new Uint8Array(words.length);
  const shared = sharedScratch;
  shared.fill(0, 0, words.length);
  let sharedCount = 0;
  let lastCandidate = -1;
  let lastAuthor = -1;
  let toAuthor = 0;
  let authorToCandidate = 0;
  let adjacentTurns = 0;
  let adjacentAfterAuthor = 0;
  const speakers = speakersByRecency(view);
  for (let i = 0; i < n; i++) {
    const m = messages[i]!;
    if (m.authorId === candidate) {
      lastCandidate = i;
      if (addressedTo(m, author)) toAuthor++;
      for (let k = 0; k < words.length; k++) {
        if (shared[k] === 0 && m.contentWords.has(words[k]!)) {
          shared[k] = 1;
          sharedCount++;
        }
      }
      if (lastAuthor >= 0 && i - lastAuthor <= ADJACENT) adjacentAfterAuthor++;
    } else if (m.authorId === author) {
      lastAuthor = i;
      if (addressedTo(m, candidate)) authorToCandidate++;
      if (lastCandidate >= 0 && i - lastCandidate <= ADJACENT) adjacentTurns++;
    }
  }
  let othersToAuthorSince = 0;
  for (let i = lastAuthor + 1; i < n; i++) {
    const m = messages[i]!;
    if (m.authorId !== candidate && addressedTo(m, author)) othersToAuthorSince++;
  }
  const last = messages[lastCandidate];
  const authorPrev = messages[lastAuthor];
  const rank = speakers.indexOf(candidate) + 1 || speakers.length + 1;
  const msgsSince = lastCandidate >= 0 ? n - lastCandidate - 1 : n;
  const minutesSince = last ? Math.max(0, current.ts - last.ts) / 60_000 : 60;
  const lastToAuthor = last !== undefined && addressedTo(last, author) ? 1 : 0;
  out[0] = 1;
  out[1] = current.leadId === candidate ? 1 : 0;
  out[2] = addressedTo(current, candidate) ? 1 : 0;
  out[3] = addressedElsewhere(current, candidate) ? 1 : 0;
  out[4] = namesAnyoneBut(current.namedIds, candidate, author) ? 1 : 0;
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
  out[19] = last ? overlap(current.contentWords, last.contentWords) : 0;
  out[20] = Math.min(sharedCount, OVERLAP_CAP);
  out[21] = last?.isQuestion ? 1 : 0;
  out[22] = lastToAuthor && msgsSince <= ADJACENT ? 1 : 0;
  out[23] = log1p(adjacentAfterAuthor);
  out[24] = current.isQuestion ? 1 : 0;
  out[25] = read.logLength;
  out[26] = read.thanks;
  out[27] = read.answerWord;
  out[28] = log1p(speakers.length);
  out[29] = lastAuthor >= 0 && lastCandidate > lastAuthor && lastCandidate - lastAuthor <= ADJACENT ? 1 : 0;
  out[30] = current.nickedIds.has(candidate) ? 1 : 0;
  out[31] = namesAnyoneBut(current.nickedIds, candidate, candidate) ? 1 : 0;
  out[32] = log1p(othersToAuthorSince);
}

/** Symmetric features of "the current message answers `candidate`", in CANDIDATE_FEATURES order. */
export function candidateFeatures(view: ChannelView, candidate: string): number[] {
  const out = new Array<number>(CANDIDATE_FEATURES.length);
  fillCandidateFeatures(view, candidate, out);
  return out;
}

const scoreScratch = new Float64Array(CANDIDATE_FEATURES.length);

/** The stage-1 score of `candidate` (weights over candidateFeatures), without building the feature list. */
export function candidateScore(view: ChannelView, candidate: string, weights: ArrayLike<number>): number {
  fillCandidateFeatures(view, candidate, scoreScratch);
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
