/**
 * @module
 * bench/recall's method: threads from gold reply links, one passage of each thread's first messages, questions
 * only from later messages whose previous turn is not in the passage, and the ranking figures.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../bench/decision/corpus.ts";
import { addLog, PASSAGE_MESSAGES, type BenchCorpus } from "../../bench/recall/cases.ts";
import { addRank, emptyRankTally, rankFigures } from "../../bench/recall/metrics.ts";
import { threadsOf } from "../../bench/recall/threads.ts";

const line = (i: number, author: string, text: string) => ({ i, time: "10:00", author, text });
const LOG = parseLog({
  source: "2020-01-01_10",
  messages: [
    line(1000, "ann", "my wifi drops every hour"),
    line(1001, "bo", "which card is it?"),
    line(1002, "cy", "anyone using grub2?"),
    line(1003, "ann", "an intel 3945"),
    line(1004, "bo", "try the iwl3945 driver"),
    line(1005, "ann", "which package has it?"),
    line(1006, "bo", "linux-firmware"),
    { i: 1007, system: "=== dee has joined" },
    line(1008, "dee", "cy: grub2 works fine here"),
  ],
  links: [
    [1000, 1001],
    [1001, 1003],
    [1003, 1004],
    [1004, 1005],
    [1005, 1006],
    [1002, 1008],
    [1000, 1000],
  ],
});

describe("bench/recall's questions", () => {
  it("group messages into threads by their reply links, in log order", () => {
    expect(threadsOf(LOG).map((t) => t.map((l) => l.i))).toEqual([
      [1000, 1001, 1003, 1004, 1005, 1006],
      [1002, 1008],
    ]);
  });

  it("index each thread's first messages, and ask only with later messages whose previous turn is past the passage", () => {
    const corpus: BenchCorpus = { passages: [], questions: [] };
    addLog(corpus, LOG);
    expect(PASSAGE_MESSAGES).toBe(3);
    expect(corpus.passages.map((p) => p.text)).toEqual([
      "ann: my wifi drops every hour\nbo: which card is it?\nann: an intel 3945",
      "cy: anyone using grub2?\ndee: cy: grub2 works fine here",
    ]);
    expect(corpus.questions.map((q) => [q.text, q.answer])).toEqual([
      ["bo: try the iwl3945 driver\nann: which package has it?", corpus.passages[0]!.id],
      ["ann: which package has it?\nbo: linux-firmware", corpus.passages[0]!.id],
    ]);
  });
});

describe("bench/recall's figures", () => {
  it("count recall@1, recall@5 and the mean reciprocal rank, a miss as 0", () => {
    const tally = emptyRankTally();
    for (const rank of [1, 2, 5, 6, 0]) addRank(tally, rank);
    expect(rankFigures(tally)).toEqual({
      recall_at_1: 0.2,
      recall_at_5: 0.6,
      mrr: Math.round(((1 + 1 / 2 + 1 / 5 + 1 / 6) / 5) * 1000) / 1000,
    });
  });
});
