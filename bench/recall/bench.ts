/**
 * @module
 * The measurement: index the corpus's passages, then ask every question in each search mode through Parley's
 * recall client (one query request per answer, as the reply job makes it), and print the figures.
 */
import { RecallIndex, RECALL_SEARCH_MODE, type SearchMode } from "../../lib/memory/recall/client.ts";
import { quoted } from "../../lib/memory/recall/filters.ts";
import { recallBudgetTokens, recallTokens, type RecalledPassage } from "../../lib/memory/recall/format.ts";
import { recallNamespace } from "../../lib/memory/recall/namespace.ts";
import { RECALL_MIN_SCORE, recallForAnswer } from "../../lib/memory/recall/recall.ts";
import { readLogs } from "../decision/corpus.ts";
import { addLog, BENCH_PLACE, NO_WINDOW, questionFilter, type BenchCorpus, type Question } from "./cases.ts";
import { addIndexingCost, type IndexingCost } from "./indexing.ts";
import { addRank, emptyRankTally, percentile, rankFigures, type RankFigures } from "./metrics.ts";
import { PROMPT_BUDGET, selectionAt, type SelectionFigures } from "./selection.ts";
import { startBenchStack, totalRequests, type BenchStack } from "./stack.ts";

/** Each search mode measured, and the one Parley uses (the JSON line reports it). */
const MODES: { name: string; mode: SearchMode }[] = [
  { name: "sparse: BM25 (IDF)", mode: { queryMode: "SPARSE", fusion: "RRF" } },
  { name: "dense: local hashed n-grams", mode: { queryMode: "DENSE", fusion: "RRF" } },
  { name: "hybrid: RRF", mode: { queryMode: "HYBRID", fusion: "RRF" } },
  { name: "hybrid: DBSF (Upstash's)", mode: { queryMode: "HYBRID", fusion: "DBSF" } },
  { name: "hybrid: DBSF, dense x0.5 of 30", mode: RECALL_SEARCH_MODE },
];
const CHOSEN = MODES.findIndex((m) => m.mode === RECALL_SEARCH_MODE);
/** The fusion recall used before it weighted the dense list (upstash_dbsf in the JSON line). */
const UPSTASH_DBSF = 3;
const TOP_K = 10;
const UPSERT_BATCH = 100;
/** Queries run before timing, so that the first mode does not pay for warming up. */
const WARM_UP_QUERIES = 100;
/** Scores the sweep shows (the chosen mode's scale). */
const THRESHOLDS = [0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6];
/** Each mode is also compared at the threshold that lets this share of answers without a right passage get one. */
const NOISE_SHARE = 0.25;

interface ModeResult {
  name: string;
  mode: SearchMode;
  figures: RankFigures;
  p50Ms: number;
  requestsPerAnswer: number;
  hits: RecalledPassage[][];
  /** The same questions with their right passage filtered out: what recall adds when nothing relevant exists. */
  withoutRight: RecalledPassage[][];
}

export async function runRecallBench(file: string, json: boolean): Promise<void> {
  const corpus: BenchCorpus = { passages: [], questions: [] };
  const indexing: IndexingCost = { memoryJobs: 0, upserted: 0, orphaned: 0 };
  for await (const log of readLogs(file)) {
    addLog(corpus, log);
    addIndexingCost(indexing, log);
  }
  if (corpus.questions.length === 0) throw new Error(`${file} has no thread long enough to ask about`);
  const stack = await startBenchStack();
  try {
    const index = new RecallIndex({ url: stack.url, token: stack.token });
    const namespace = recallNamespace("bench", BENCH_PLACE);
    for (let i = 0; i < corpus.passages.length; i += UPSERT_BATCH)
      await index.upsert(namespace, corpus.passages.slice(i, i + UPSERT_BATCH));
    const indexingRequests = totalRequests(stack.requests);
    console.log(`file: ${file}`);
    console.log(
      `${corpus.passages.length} passages (${indexingRequests} upsert requests), ${corpus.questions.length} questions`,
    );
    await askAll(index, namespace, corpus.questions.slice(0, WARM_UP_QUERIES), MODES[CHOSEN]!.mode);
    const results: ModeResult[] = [];
    for (const { name, mode } of MODES) {
      const before = totalRequests(stack.requests);
      const asked = await askAll(index, namespace, corpus.questions, mode);
      const requestsPerAnswer = (totalRequests(stack.requests) - before) / corpus.questions.length;
      const withoutRight = await askAll(
        index,
        namespace,
        corpus.questions,
        mode,
        (q) => ` AND conversation != ${quoted(conversationOf(q.answer))}`,
      );
      results.push({ name, mode, ...asked, requestsPerAnswer, withoutRight: withoutRight.hits });
    }
    printRanking(results);
    printGates(results, corpus.questions);
    const chosen = results[CHOSEN]!;
    console.log(
      `\n${chosen.name}: what reaches the prompt at each relevance threshold (recall's share of a 6,000-token budget)`,
    );
    console.log("min score  right passage in prompt  recalled with the right one removed  tokens mean  p95");
    for (const t of THRESHOLDS) printSelection(selectionAt(t, corpus.questions, chosen.hits, chosen.withoutRight));
    const parley = await answerAll(stack, index, namespace, corpus.questions);
    console.log(
      `\nParley's recall as the reply job runs it (${chosen.name}, min score ${RECALL_MIN_SCORE}, at most ${recallBudgetTokens(PROMPT_BUDGET)} tokens): ` +
        `right passage in the prompt for ${parley.rightInPrompt.toFixed(3)} of answers, ${parley.tokensMean} prompt tokens per answer on average, ` +
        `${parley.requestsPerAnswer.toFixed(2)} Vector requests per answer (query p50 ${parley.p50Ms.toFixed(1)} ms), 0 on the webhook path (recall runs only in jobs)`,
    );
    console.log(
      `indexing: ${(indexing.upserted / Math.max(1, indexing.memoryJobs)).toFixed(2)} passages upserted per memory job (one request; billed per passage) ` +
        `with an answer every 10 messages; ${indexing.orphaned} passage ids left behind as conversations grew`,
    );
    if (json) {
      console.log(
        JSON.stringify({
          queries: corpus.questions.length,
          ...chosen.figures,
          baseline_bm25: results[0]!.figures,
          upstash_dbsf: results[UPSTASH_DBSF]!.figures,
          vector_requests_per_answer: parley.requestsPerAnswer,
          query_p50_ms: Math.round(parley.p50Ms * 10) / 10,
        }),
      );
    }
  } finally {
    await stack.stop();
  }
}

function printRanking(results: ModeResult[]): void {
  console.log(`\n${"mode".padEnd(30)} recall@1 recall@5    MRR  p50 ms  requests/answer`);
  for (const r of results) {
    const f = r.figures;
    console.log(
      `${r.name.padEnd(30)} ${f.recall_at_1.toFixed(3).padStart(8)} ${f.recall_at_5.toFixed(3).padStart(8)} ${f.mrr.toFixed(3).padStart(6)} ` +
        `${r.p50Ms.toFixed(1).padStart(7)} ${r.requestsPerAnswer.toFixed(2).padStart(16)}`,
    );
  }
}

/**
 * Each mode's threshold that lets through something for only NOISE_SHARE of the answers whose right passage is gone.
 */
function printGates(results: ModeResult[], questions: Question[]): void {
  console.log(`\nat the threshold where ${NOISE_SHARE * 100}% of answers without a right passage still get one:`);
  console.log(`${"mode".padEnd(30)} min score  right passage in prompt  tokens mean`);
  for (const r of results) {
    const best = r.withoutRight.map((hits) => hits[0]?.score ?? -Infinity);
    const s = selectionAt(percentile(best, 100 * (1 - NOISE_SHARE)), questions, r.hits, r.withoutRight);
    console.log(
      `${r.name.padEnd(30)} ${s.minScore.toFixed(3).padStart(9)} ${s.rightInPrompt.toFixed(3).padStart(23)} ${String(s.tokensMean).padStart(12)}`,
    );
  }
}

function printSelection(s: SelectionFigures): void {
  console.log(
    `${s.minScore.toFixed(1).padStart(9)} ${s.rightInPrompt.toFixed(3).padStart(24)} ${s.recalledWithoutRight.toFixed(3).padStart(36)} ` +
      `${String(s.tokensMean).padStart(12)} ${String(s.tokensP95).padStart(4)}`,
  );
}

/** Every question through recallForAnswer, exactly as the reply job calls it, counting the stand-in's requests. */
async function answerAll(stack: BenchStack, index: RecallIndex, namespace: string, questions: Question[]) {
  const before = totalRequests(stack.requests);
  const latencies: number[] = [];
  let right = 0;
  let tokens = 0;
  for (const q of questions) {
    const started = performance.now();
    const recalled = await recallForAnswer(index, {
      namespace,
      filter: questionFilter(q),
      queryText: q.text,
      now: q.ts,
      window: NO_WINDOW,
      maxTokens: recallBudgetTokens(PROMPT_BUDGET),
    });
    latencies.push(performance.now() - started);
    if (recalled.outcome === "unavailable") throw new Error(`recall failed: ${recalled.error}`);
    if (recalled.passages.some((p) => p.id === q.answer)) right++;
    tokens += recallTokens(recalled.passages);
  }
  const n = Math.max(1, questions.length);
  return {
    rightInPrompt: right / n,
    tokensMean: Math.round(tokens / n),
    requestsPerAnswer: (totalRequests(stack.requests) - before) / n,
    p50Ms: percentile(latencies, 50),
  };
}

/** Passage ids are `c:<conversation>:m:<first message>`. */
function conversationOf(passageId: string): string {
  return passageId.split(":")[1]!;
}

/** Asks every question once; `narrow` adds to the filter (only passages that ended before the question count). */
async function askAll(
  index: RecallIndex,
  namespace: string,
  questions: Question[],
  mode: SearchMode,
  narrow: (q: Question) => string = () => "",
) {
  const tally = emptyRankTally();
  const latencies: number[] = [];
  const all: RecalledPassage[][] = [];
  for (const q of questions) {
    const filter = questionFilter(q, narrow(q));
    const started = performance.now();
    const { hits } = await index.search(namespace, { text: q.text, filter, topK: TOP_K, mode });
    latencies.push(performance.now() - started);
    all.push(hits);
    addRank(tally, hits.findIndex((h) => h.id === q.answer) + 1);
  }
  return { figures: rankFigures(tally), p50Ms: percentile(latencies, 50), hits: all };
}
