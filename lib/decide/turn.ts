/**
 * @module
 * One message of a channel view read as the current one, over the messages before it: the whole view for the
 * decision itself, a prefix of it for each inferred reply link (chains.ts). What every candidate's features read
 * the same way is computed once here, not once per candidate.
 */
import type { ChannelMessage, ChannelView } from "./channel.ts";

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
  logLength: number;
  thanks: number;
  answerWord: number;
}

/** log(1 + k) of the small counts the features take it of, computed once (the same Math.log, the same values). */
const LOG1P_COUNTS = Array.from({ length: 64 }, (_, k) => Math.log(1 + k));

export function log1p(x: number): number {
  return x >= 0 && x < LOG1P_COUNTS.length && Number.isInteger(x) ? LOG1P_COUNTS[x]! : Math.log(1 + x);
}

export function readTurn(view: ChannelView, start: number, at: number): Turn {
  const current = view.messages[at]!;
  const author = current.author;
  const speakers: number[] = [];
  for (let i = at - 1; i >= start; i--) {
    const id = view.messages[i]!.author;
    if (id !== author && !speakers.includes(id)) speakers.push(id);
  }
  const text = current.normalized.trimStart();
  return {
    view,
    start,
    at,
    current,
    author,
    speakers,
    logLength: log1p(current.normalized.length) / 5,
    thanks: THANKS.test(text) ? 1 : 0,
    answerWord: ANSWER_WORD.test(text) ? 1 : 0,
  };
}
