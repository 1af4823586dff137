/**
 * @module
 * One message of a channel view read as the current one, over the messages before it: the whole view for the
 * decision itself, a prefix of it for each inferred reply link (chains.ts). Every candidate's features read the
 * same turn, so one pass over its messages counts, for all participants at once, what signals.ts reads of each.
 */
import type { ChannelMessage, ChannelView } from "./channel.ts";

/** Replies sit close to what they answer; beyond this many messages a "just after" link means little. */
export const ADJACENT = 3;
const THANKS = /^(thanks|thank|thx|ty|tnx|cheers)\b/u;
const ANSWER_WORD = /^(yes|yeah|yep|no|nope|ok|okay|k|sure|right|it|that|i|hmm|oh|ah|well)\b/u;

export interface Turn {
  view: ChannelView;
  /** The turn reads view.messages[start..at]; the message at `at` is the current one. */
  start: number;
  at: number;
  current: ChannelMessage;
  author: number;
  /** The speakers before the current message other than its author, most recent first. */
  speakers: number[];
  /** Index of the author's latest message before the current one, -1 if none. */
  lastAuthor: number;
  /** Messages since the author's latest (or in the turn) that name the author. */
  toAuthorSince: number;
  /** Count rows by participant; a participant index past the view's (someone it never saw) reads as silent. */
  counts: number[];
  stride: number;
  logLength: number;
  thanks: number;
  answerWord: number;
}

// The rows of `Turn.counts`, one number per participant each (row * stride + participant).
/** Index of their latest message in the turn, -1 if none. */
export const LAST_SPOKE = 0;
/** Their messages that name the author. */
export const TO_AUTHOR = 1;
/** The author's messages that name them. */
export const AUTHOR_TO = 2;
/** The author's messages within ADJACENT after one of theirs. */
export const ADJACENT_TURNS = 3;
/** Their messages within ADJACENT after one of the author's. */
export const ADJACENT_AFTER_AUTHOR = 4;
/** Their messages since the author's latest that name the author. */
export const TO_AUTHOR_SINCE = 5;
/** The current message's content words they used in the turn. */
export const SHARED_WORDS = 6;
/** The current message's content words their latest message has. */
export const LAST_OVERLAP = 7;
/** 1 + the last of the current message's words counted for them (so that each counts once). */
const WORD_SEEN = 8;
/** Their place among `speakers` (1 for the latest), 0 if they did not speak. */
export const RANK = 9;

export function log1p(x: number): number {
  return Math.log(1 + x);
}

export function addressedTo(m: ChannelMessage, id: number): boolean {
  return m.named.includes(id) || m.nicked.includes(id);
}

/** The turn's per-participant counts (the rows above); the author's own row is not read. */
function count(turn: Turn): void {
  const { view, start, at: n, author, counts, stride } = turn;
  const messages = view.messages;
  const row = (r: number, id: number): number => r * stride + id;
  counts.fill(-1, 0, stride);
  let lastAuthor = -1;
  for (let i = start; i < n; i++) {
    const m = messages[i]!;
    if (m.author === author) {
      lastAuthor = i;
      for (const k of m.named) counts[row(AUTHOR_TO, k)]!++;
      for (const k of m.nicked) counts[row(AUTHOR_TO, k)]!++;
      // Each participant whose latest message is within ADJACENT before this one, once.
      for (let j = i - 1; j >= Math.max(start, i - ADJACENT); j--) {
        const c = messages[j]!.author;
        if (c !== author && counts[c] === j) counts[row(ADJACENT_TURNS, c)]!++;
      }
    } else {
      counts[m.author] = i;
      if (addressedTo(m, author)) counts[row(TO_AUTHOR, m.author)]!++;
      if (lastAuthor >= 0 && i - lastAuthor <= ADJACENT) counts[row(ADJACENT_AFTER_AUTHOR, m.author)]!++;
    }
  }
  turn.lastAuthor = lastAuthor;
  for (let i = lastAuthor >= 0 ? lastAuthor + 1 : start; i < n; i++) {
    const m = messages[i]!;
    if (!addressedTo(m, author)) continue;
    turn.toAuthorSince++;
    counts[row(TO_AUTHOR_SINCE, m.author)]!++;
  }
  // Which of the current message's words each participant used before it, and which their latest message has.
  const { lastUse, usePrev, useMessage } = view.words;
  const words = turn.current.words;
  for (let w = 0; w < words.length; w++) {
    for (let use = lastUse[words[w]!]!; use >= 0; use = usePrev[use]!) {
      const i = useMessage[use]!;
      if (i >= n) continue;
      if (i < start) break;
      const c = messages[i]!.author;
      if (counts[row(WORD_SEEN, c)] !== w + 1) {
        counts[row(WORD_SEEN, c)] = w + 1;
        counts[row(SHARED_WORDS, c)]!++;
      }
      if (i === counts[c]) counts[row(LAST_OVERLAP, c)]!++;
    }
  }
}

/** How many rows `Turn.counts` has, the last being RANK. */
const ROWS = RANK + 1;

export function readTurn(view: ChannelView, start: number, at: number): Turn {
  const current = view.messages[at]!;
  const author = current.author;
  const stride = view.ids.length + 1;
  const counts = new Array<number>(ROWS * stride).fill(0);
  const speakers: number[] = [];
  for (let i = at - 1; i >= start; i--) {
    const id = view.messages[i]!.author;
    if (id === author || counts[RANK * stride + id] !== 0) continue;
    speakers.push(id);
    counts[RANK * stride + id] = speakers.length;
  }
  const text = current.normalized.trimStart();
  const turn: Turn = {
    view,
    start,
    at,
    current,
    author,
    speakers,
    lastAuthor: -1,
    toAuthorSince: 0,
    counts,
    stride,
    logLength: log1p(current.normalized.length) / 5,
    thanks: THANKS.test(text) ? 1 : 0,
    answerWord: ANSWER_WORD.test(text) ? 1 : 0,
  };
  count(turn);
  return turn;
}
