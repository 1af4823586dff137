/**
 * @module
 * The learned tier's training rows, read once from a split and kept on disk between runs: for every pair the rules
 * leave open, its stage-2 features (binned), its label, its log, and whether the continuation path would take it;
 * for every log, its pace and what the rules alone answered. Cross-validation and ablation (cv.ts, ablate.ts) fit
 * many models over these rows; reading the channel for 600,000 pairs is the slow part, so it is done once per
 * version of the decider's code, the stage-1 weights and the split (the cache key hashes all three).
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { continuation } from "../../lib/decide/continuation.ts";
import { DECISION_FEATURES, decisionFeatures } from "../../lib/decide/decision-features.ts";
import { botMemory, decideByRules } from "../../lib/decide/rules.ts";
import { type BinnedRows, binRows } from "./boost.ts";
import { type ChatLog, readLogs } from "./corpus.ts";
import { BENCH_OPTIONS, decisionPairs } from "./pairs.ts";

const DECIDE_DIR = join(dirname(fileURLToPath(import.meta.url)), "../../lib/decide");

/** What the rules alone answered in one log, and how many real replies it has in all. */
interface RuleTally {
  yesTrue: number;
  yesFalse: number;
  positives: number;
}

/** How the continuation path would take an open pair: 0 not at all, 1 weak (judge only), 2 strong. */
export const CONTINUATION_CODE = { none: 0, weak: 1, strong: 2 } as const;

export interface TrainRows {
  features: readonly string[];
  binned: BinnedRows;
  labels: boolean[];
  /** Per open pair: its log's index (logs in file order). */
  log: Int32Array;
  continuation: Uint8Array;
  /** Per log: messages per minute over the whole log (busy or quiet, for the calibration check). */
  logPace: number[];
  rules: RuleTally[];
}

function cacheKey(file: string, candidateWeights: readonly number[]): string {
  const hash = createHash("sha256");
  const stat = statSync(file);
  hash.update(`${file}:${stat.size}:${stat.mtimeMs}:${candidateWeights.join(",")}`);
  for (const name of readdirSync(DECIDE_DIR).sort()) {
    if (name !== "weights.ts") hash.update(readFileSync(join(DECIDE_DIR, name)));
  }
  return join(tmpdir(), `parley-decision-rows-${hash.digest("hex").slice(0, 16)}`);
}

function logPace(log: ChatLog): number {
  const first = log.lines[0];
  const last = log.lines[log.lines.length - 1];
  if (first === undefined || last === undefined) return 0;
  return log.lines.length / Math.max(1, (last.ts - first.ts) / 60_000);
}

async function extract(file: string, candidateWeights: readonly number[]): Promise<TrainRows> {
  const raw: Float64Array[] = [];
  const labels: boolean[] = [];
  const logOf: number[] = [];
  const continues: number[] = [];
  const paces: number[] = [];
  const rules: RuleTally[] = [];
  for await (const log of readLogs(file)) {
    const k = paces.length;
    paces.push(logPace(log));
    const tally = { yesTrue: 0, yesFalse: 0, positives: 0 };
    rules.push(tally);
    for (const pair of decisionPairs(log)) {
      if (pair.truth) tally.positives++;
      const outcome = decideByRules(pair.state, pair.msg, pair.bot, BENCH_OPTIONS);
      if ("decision" in outcome) {
        if (outcome.decision.respond === "yes") tally[pair.truth ? "yesTrue" : "yesFalse"]++;
        continue;
      }
      raw.push(
        Float64Array.from(decisionFeatures(outcome.view, botMemory(pair.state, BENCH_OPTIONS), candidateWeights)),
      );
      labels.push(pair.truth);
      logOf.push(k);
      const path = continuation(outcome.view, pair.state.lastBotReplyTo, BENCH_OPTIONS.followupWindowSeconds * 1000);
      continues.push(CONTINUATION_CODE[path ?? "none"]);
    }
  }
  return {
    features: DECISION_FEATURES,
    binned: binRows(raw),
    labels,
    log: Int32Array.from(logOf),
    continuation: Uint8Array.from(continues),
    logPace: paces,
    rules,
  };
}

/** The open pairs' rows of `file` under `candidateWeights`, from the cache when this code has read them before. */
export async function trainRows(file: string, candidateWeights: readonly number[]): Promise<TrainRows> {
  const key = cacheKey(file, candidateWeights);
  if (existsSync(`${key}.json`) && existsSync(`${key}.bin`)) {
    const meta = JSON.parse(readFileSync(`${key}.json`, "utf8")) as Omit<
      TrainRows,
      "binned" | "labels" | "log" | "continuation"
    > & {
      n: number;
      d: number;
      edges: number[][];
      labels: string;
      log: number[];
      continuation: number[];
    };
    const bins = new Uint8Array(readFileSync(`${key}.bin`));
    return {
      features: meta.features,
      binned: { n: meta.n, d: meta.d, edges: meta.edges, bins },
      labels: [...meta.labels].map((c) => c === "1"),
      log: Int32Array.from(meta.log),
      continuation: Uint8Array.from(meta.continuation),
      logPace: meta.logPace,
      rules: meta.rules,
    };
  }
  const rows = await extract(file, candidateWeights);
  const { binned, labels, log, continuation: continues, ...rest } = rows;
  writeFileSync(`${key}.bin`, binned.bins);
  writeFileSync(
    `${key}.json`,
    JSON.stringify({
      ...rest,
      n: binned.n,
      d: binned.d,
      edges: binned.edges,
      labels: labels.map((l) => (l ? "1" : "0")).join(""),
      log: [...log],
      continuation: [...continues],
    }),
  );
  return rows;
}
