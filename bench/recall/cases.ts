/**
 * @module
 * The bench's passages and questions. Every thread of the corpus becomes one passage of its first
 * PASSAGE_MESSAGES messages, built by Parley's own passage code in one channel of one tenant. Every later message
 * of a thread whose previous turn is also past the passage becomes a question: its text and that previous turn,
 * built by Parley's own query code; the right answer is its thread's passage. Questions may only find passages that
 * ended before them (as in production, where later talk is not indexed yet).
 */
import type { ConversationKey, StoredMessage } from "../../lib/message.ts";
import { passageOf, type PassageSource } from "../../lib/memory/recall/build-passages.ts";
import { recallFilter } from "../../lib/memory/recall/filters.ts";
import type { Passage } from "../../lib/memory/recall/passage.ts";
import { recallQueryText } from "../../lib/memory/recall/query-text.ts";
import type { ChatLine, ChatLog } from "../decision/corpus.ts";
import { threadsOf } from "./threads.ts";

export const PASSAGE_MESSAGES = 3;
export const BENCH_PLACE: ConversationKey = { platform: "slack", tenant: "TBENCH", channel: "CUBUNTU" };
export const BENCH_BOT = { userId: "UPARLEY", name: "Parley" };

export interface Question {
  text: string;
  ts: number;
  /** The id of its thread's passage. */
  answer: string;
}

/** The questions come from new conversations: nothing recalled is already in their prompt. */
export const NO_WINDOW = { conversationId: "", since: Infinity };

/** What the place may recall, narrowed to passages that ended before the question (and by `extra`). */
export function questionFilter(q: Question, extra = ""): string {
  return `${recallFilter(BENCH_PLACE, "public")} AND end < ${q.ts}${extra}`;
}

export interface BenchCorpus {
  passages: Passage[];
  questions: Question[];
}

function stored(source: string, line: ChatLine): StoredMessage {
  return {
    id: `${source}:${line.i}`,
    role: "user",
    authorId: line.author,
    authorName: line.author,
    text: line.text,
    ts: line.ts,
  };
}

export function addLog(corpus: BenchCorpus, log: ChatLog): void {
  for (const thread of threadsOf(log)) {
    const messages = thread.map((line) => stored(log.source, line));
    const source: PassageSource = {
      key: BENCH_PLACE,
      visibility: "public",
      conversationId: `${log.source}-${thread[0]!.i}`,
      bot: BENCH_BOT,
      forgotten: new Set(),
    };
    const passage = passageOf(source, messages.slice(0, PASSAGE_MESSAGES));
    corpus.passages.push(passage);
    for (let k = PASSAGE_MESSAGES + 1; k < messages.length; k++) {
      corpus.questions.push({
        text: recallQueryText(BENCH_BOT, messages.slice(k - 1, k + 1), messages[k]!.id),
        ts: messages[k]!.ts,
        answer: passage.id,
      });
    }
  }
}
