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

/** Words of `current` that some of `messages` (indices into `all`) also has, capped: no set of their words is built. */
function overlapAny(current: Set<string>, all: readonly ChannelMessage[], messages: readonly number[]): number {
  let shared = 0;
  for (const w of current) {
    for (const i of messages) {
      if (all[i]!.contentWords.has(w)) {
        shared++;
        break;
      }
    }
  }
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

/** Symmetric features of "the current message answers `candidate`". */
export function candidateFeatures(view: ChannelView, candidate: string): number[] {
  const { messages, current } = view;
  const n = messages.length - 1;
  const author = current.authorId;
  let lastCandidate = -1;
  let lastAuthor = -1;
  let toAuthor = 0;
  let authorToCandidate = 0;
  let adjacentTurns = 0;
  let adjacentAfterAuthor = 0;
  const candidateMessages: number[] = [];
  const speakers = speakersByRecency(view);
  for (let i = 0; i < n; i++) {
    const m = messages[i]!;
    if (m.authorId === candidate) {
      lastCandidate = i;
      if (addressedTo(m, author)) toAuthor++;
      candidateMessages.push(i);
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
  const text = current.normalized.trimStart();
  return [
    1,
    current.leadId === candidate ? 1 : 0,
    addressedTo(current, candidate) ? 1 : 0,
    addressedElsewhere(current, candidate) ? 1 : 0,
    namesAnyoneBut(current.namedIds, candidate, author) ? 1 : 0,
    rank === 1 ? 1 : 0,
    rank === 2 ? 1 : 0,
    Math.log(rank),
    log1p(msgsSince),
    log1p(minutesSince),
    lastToAuthor,
    last !== undefined && addressedElsewhere(last, author) ? 1 : 0,
    log1p(toAuthor),
    authorPrev !== undefined && addressedTo(authorPrev, candidate) ? 1 : 0,
    log1p(authorToCandidate),
    authorPrev !== undefined && addressedElsewhere(authorPrev, candidate) ? 1 : 0,
    authorPrev === undefined ? 1 : 0,
    lastCandidate > lastAuthor && lastAuthor >= 0 ? 1 : 0,
    log1p(adjacentTurns + adjacentAfterAuthor),
    last ? overlap(current.contentWords, last.contentWords) : 0,
    overlapAny(current.contentWords, messages, candidateMessages),
    last?.isQuestion ? 1 : 0,
    lastToAuthor && msgsSince <= ADJACENT ? 1 : 0,
    log1p(adjacentAfterAuthor),
    current.isQuestion ? 1 : 0,
    log1p(current.normalized.length) / 5,
    THANKS.test(text) ? 1 : 0,
    ANSWER_WORD.test(text) ? 1 : 0,
    log1p(speakers.length),
    lastAuthor >= 0 && lastCandidate > lastAuthor && lastCandidate - lastAuthor <= ADJACENT ? 1 : 0,
    current.nickedIds.has(candidate) ? 1 : 0,
    namesAnyoneBut(current.nickedIds, candidate, candidate) ? 1 : 0,
    log1p(othersToAuthorSince),
  ];
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
