/**
 * @module
 * Choosing recall's fusion on the TRAIN split only (bench/recall/README.md "Choosing on train"): the train logs are
 * cut into channels of ten consecutive logs (the dev split's size), each indexed in its own namespace as
 * bench:recall indexes dev; every question asks the dense and the sparse half once, CANDIDATES deep, and each
 * fusion setting is then replayed from those two lists: Upstash's fusion as the Vector stand-in does it
 * (dev/upstash-vector/fusion.ts: a hybrid query of topK d fuses the two lists' first d), Parley's with its own code
 * (lib/memory/recall/fusion.ts). Then the relevance threshold of the chosen fusion. The dev split is never read.
 *   node bench/recall/tune.ts [--file PATH] [--channels N] [--cache PATH] [--help]
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { defineCommand, parseCommandLine, requireFile, runCommand } from "../../dev/cli.ts";
import { fuse, type FusionAlgorithm, type Scored } from "../../dev/upstash-vector/fusion.ts";
import { RecallIndex, RECALL_SEARCH_MODE } from "../../lib/memory/recall/client.ts";
import { fuseWeighted } from "../../lib/memory/recall/fusion.ts";
import { recallNamespace } from "../../lib/memory/recall/namespace.ts";
import { readLogs, type ChatLog } from "../decision/corpus.ts";
import { missingSplitHint, outsidePath } from "../decision/paths.ts";
import { addLog, BENCH_PLACE, questionFilter, type BenchCorpus } from "./cases.ts";
import { addRank, emptyRankTally, percentile, rankFigures, type RankFigures } from "./metrics.ts";
import { startBenchStack } from "./stack.ts";

const LOGS_PER_CHANNEL = 10;
/** Deep enough for every depth tried. */
const CANDIDATES = 50;
/** What bench:recall ranks (its TOP_K). */
const RANKED = 10;
const DEPTHS = [10, 15, 20, 30, 40, 50];
const UPSERT_BATCH = 100;
const DENSE_WEIGHTS = [0.25, 0.4, 0.5, 0.6, 0.75, 1, 1.25];
/** What recall ran before this choice: Upstash's DBSF of a topK-10 hybrid query, min score 1.6. */
const OLD_DEPTH = 10;
const OLD_MIN_SCORE = 1.6;

const command = defineCommand({
  name: "node bench/recall/tune.ts",
  summary:
    "Replays hybrid fusion (Upstash's RRF and DBSF, Parley's DBSF with the dense list weighted) at each candidate depth on the " +
    "train split (never dev), prints recall@1, recall@5 and MRR, and the chosen fusion's relevance threshold.",
  options: {
    file: {
      type: "string",
      valueName: "path",
      description: "the train split (default: shared/data/irc-replies/train.jsonl)",
    },
    channels: { type: "string", valueName: "n", description: "how many channels of ten logs to use (default: all)" },
    cache: {
      type: "string",
      valueName: "path",
      description: "keep the asked lists in this JSON file, and read them from it when it exists",
    },
  },
});

interface Asked {
  dense: Scored[];
  sparse: Scored[];
  answer: string;
}

async function* channelsOf(file: string, limit: number): AsyncGenerator<ChatLog[]> {
  let channel: ChatLog[] = [];
  let made = 0;
  for await (const log of readLogs(file)) {
    channel.push(log);
    if (channel.length < LOGS_PER_CHANNEL) continue;
    yield channel;
    channel = [];
    if (++made >= limit) return;
  }
}

async function askTrain(file: string, limit: number): Promise<Asked[]> {
  const stack = await startBenchStack();
  const asked: Asked[] = [];
  try {
    const index = new RecallIndex({ url: stack.url, token: stack.token });
    let n = 0;
    for await (const logs of channelsOf(file, limit)) {
      const corpus: BenchCorpus = { passages: [], questions: [] };
      for (const log of logs) addLog(corpus, log);
      const namespace = recallNamespace(`tune${n++}`, BENCH_PLACE);
      for (let i = 0; i < corpus.passages.length; i += UPSERT_BATCH)
        await index.upsert(namespace, corpus.passages.slice(i, i + UPSERT_BATCH));
      for (const q of corpus.questions) {
        const ask = (queryMode: "DENSE" | "SPARSE") =>
          index.search(namespace, {
            text: q.text,
            filter: questionFilter(q),
            topK: CANDIDATES,
            mode: { queryMode, fusion: "DBSF" },
          });
        const [dense, sparse] = await Promise.all([ask("DENSE"), ask("SPARSE")]);
        const scored = (hits: Scored[]) => hits.map(({ id, score }) => ({ id, score }));
        asked.push({ dense: scored(dense.hits), sparse: scored(sparse.hits), answer: q.answer });
      }
      console.log(`channel ${n}: ${corpus.passages.length} passages, ${corpus.questions.length} questions`);
    }
  } finally {
    await stack.stop();
  }
  return asked;
}

function figures(asked: Asked[], rank: (a: Asked) => Scored[]): RankFigures {
  const tally = emptyRankTally();
  for (const a of asked)
    addRank(
      tally,
      rank(a)
        .slice(0, RANKED)
        .findIndex((h) => h.id === a.answer) + 1,
    );
  return rankFigures(tally);
}

function hybrid(algorithm: FusionAlgorithm, depth: number) {
  return (a: Asked) => fuse(algorithm, [a.dense.slice(0, depth), a.sparse.slice(0, depth)], depth);
}

function weighted(depth: number, denseWeight: number) {
  return (a: Asked) => fuseWeighted(a.dense.slice(0, depth), a.sparse.slice(0, depth), denseWeight);
}

/** Each question's best score once its right passage is filtered out: what an answer with nothing relevant gets. */
function bestWithoutRight(asked: Asked[], rank: (a: Asked) => Scored[]): number[] {
  return asked.map(
    (a) =>
      rank({
        ...a,
        dense: a.dense.filter((h) => h.id !== a.answer),
        sparse: a.sparse.filter((h) => h.id !== a.answer),
      })[0]?.score ?? -Infinity,
  );
}

function row(name: string, f: RankFigures): void {
  console.log(
    `${name.padEnd(28)} ${f.recall_at_1.toFixed(3).padStart(8)} ${f.recall_at_5.toFixed(3).padStart(8)} ${f.mrr.toFixed(3).padStart(6)}`,
  );
}

async function main(): Promise<void> {
  const values = parseCommandLine(command);
  const file = requireFile(
    command.name,
    values.file ?? outsidePath("train"),
    missingSplitHint(values.file ?? outsidePath("train")),
  );
  const limit = values.channels === undefined ? Infinity : Number(values.channels);
  if (!(limit >= 1)) throw new Error("--channels takes a number of channels, at least 1");
  const asked: Asked[] =
    values.cache && existsSync(values.cache)
      ? (JSON.parse(readFileSync(values.cache, "utf8")) as Asked[])
      : await askTrain(file, limit);
  if (values.cache && !existsSync(values.cache)) writeFileSync(values.cache, JSON.stringify(asked));
  console.log(`\n${asked.length} train questions\n${"mode".padEnd(28)} recall@1 recall@5    MRR`);
  row(
    "sparse: BM25 (IDF)",
    figures(asked, (a) => a.sparse),
  );
  row(
    "dense: local hashed n-grams",
    figures(asked, (a) => a.dense),
  );
  for (const algorithm of ["RRF", "DBSF"] as const) {
    for (const depth of DEPTHS) row(`hybrid ${algorithm}, depth ${depth}`, figures(asked, hybrid(algorithm, depth)));
  }
  for (const depth of [10, 20, 30, 50]) {
    for (const w of DENSE_WEIGHTS) row(`DBSF dense x${w}, depth ${depth}`, figures(asked, weighted(depth, w)));
  }
  // The relevance threshold keeps the noise of the one chosen before: as many answers whose right passage is filtered
  // out still get a passage as the old DBSF at 1.6 let through, on train.
  const chosen = RECALL_SEARCH_MODE.weighted!;
  const oldNoise =
    bestWithoutRight(asked, hybrid("DBSF", OLD_DEPTH)).filter((b) => b >= OLD_MIN_SCORE).length / asked.length;
  const sameNoise = percentile(
    bestWithoutRight(asked, weighted(chosen.candidates, chosen.denseWeight)),
    100 * (1 - oldNoise),
  );
  console.log(
    `\nchosen: dense x${chosen.denseWeight}, ${chosen.candidates} candidates; the old DBSF (depth ${OLD_DEPTH}) at ${OLD_MIN_SCORE} lets ` +
      `${oldNoise.toFixed(3)} of the answers without a right passage get one; the chosen mode does so at min score ${sameNoise.toFixed(3)}`,
  );
}

await runCommand(command.name, main);
