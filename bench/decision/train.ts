/**
 * @module
 * Fits the decider's learned tier on the TRAIN split only and writes lib/decide/weights.ts.
 * Deterministic: Newton's method, logs in file order, no randomness.
 *   node bench/decision/train.ts [--file PATH]   (default: shared/data/irc-replies/train.jsonl)
 * Stage 1 (logistic regression, all train logs) scores "m answers candidate Q" symmetrically for any participant;
 * stage 2 (boosted trees) adds what the bot knows of itself and its margin over the best other candidate. The trees
 * are fitted on the first 80% of the train logs, on the pairs the rules leave open; the thresholds are chosen on the
 * last 20%, so the precision they promise is measured on days the trees never saw.
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { botMemory, decideByRules } from "../../lib/decide/rules.ts";
import { decisionFeatures } from "../../lib/decide/decision-features.ts";
import { CANDIDATE_FEATURES, candidateFeatures, sigmoid } from "../../lib/decide/signals.ts";
import { TREE_DEPTH, treeScore } from "../../lib/decide/trees.ts";
import { fitBoostedTrees } from "./boost.ts";
import { type ChannelView, readChannel } from "../../lib/decide/channel.ts";
import type { BotMemory } from "../../lib/decide/signals.ts";
import { type ChatLog, readLogs } from "./corpus.ts";
import { BENCH_OPTIONS, decisionPairs } from "./pairs.ts";
import { fitLogistic } from "./logistic.ts";
import { WEIGHTS_PATH, dataPath } from "./paths.ts";

/** Precision aimed for on held-out train logs: a little above the 0.85 target, since dev is other days. */
const TARGET_PRECISION = 0.86;
/** The last logs of train are held out of the tree fit to pick the thresholds on unseen days. */
const HELD_OUT_SHARE = 0.2;
/**
 * The judge band sits just under RESPOND_THRESHOLD and reaches down only while at least one in four of the
 * messages inside it is a real reply: a judge call per message that is almost never for the bot is cost, not recall.
 */
const JUDGE_BAND_PRECISION = 0.25;
const BOOST = { trees: 100, learningRate: 0.2 };

/** Replays every pair, handing the ones the rules leave open to \`visit\`; returns the rules' own "yes" tally. */
function replayOpenPairs(
  from: readonly ChatLog[],
  visit: (view: ChannelView, memory: BotMemory, truth: boolean) => void,
): RuleTally {
  const tally = { yesTrue: 0, yesFalse: 0, positives: 0 };
  for (const log of from) {
    for (const pair of decisionPairs(log)) {
      if (pair.truth) tally.positives++;
      const outcome = decideByRules(pair.state, pair.msg, pair.bot, BENCH_OPTIONS);
      if ("view" in outcome) visit(outcome.view, botMemory(pair.state, BENCH_OPTIONS), pair.truth);
      else if (outcome.decision.respond === "yes") tally[pair.truth ? "yesTrue" : "yesFalse"]++;
    }
  }
  return tally;
}

interface RuleTally {
  yesTrue: number;
  yesFalse: number;
  positives: number;
}

const { values } = parseArgs({ options: { file: { type: "string" } } });
const file = values.file ?? dataPath("train");

const logs: ChatLog[] = [];
for await (const log of readLogs(file)) logs.push(log);

// Stage 1 scores any participant in any channel, so it learns from every pair, named ones included.
const candidateLabels: boolean[] = [];
const candidateRows: Float64Array[] = [];
for (const log of logs) {
  for (const pair of decisionPairs(log)) {
    const view = readChannel(pair.state, pair.bot);
    candidateLabels.push(pair.truth);
    candidateRows.push(Float64Array.from(candidateFeatures(view, view.botId)));
  }
}
const candidateWeights = fitLogistic(candidateRows, candidateLabels);
candidateRows.length = 0;

// Views are rebuilt in each pass: holding hundreds of thousands of them at once does not fit in memory.
function decisionRows(from: readonly ChatLog[]): { rows: Float64Array[]; labels: boolean[]; rules: RuleTally } {
  const rows: Float64Array[] = [];
  const labels: boolean[] = [];
  const rules = replayOpenPairs(from, (view, memory, truth) => {
    labels.push(truth);
    rows.push(Float64Array.from(decisionFeatures(view, memory, candidateWeights)));
  });
  return { rows, labels, rules };
}
const split = Math.round(logs.length * (1 - HELD_OUT_SHARE));
const fit = decisionRows(logs.slice(0, split));
console.log(`pairs open to the model: ${fit.labels.length} (fit), positives overall: ${fit.rules.positives}`);
const decisionTrees = fitBoostedTrees(fit.rows, fit.labels, BOOST);
fit.rows.length = 0;
const { rows: heldRows, labels, rules } = decisionRows(logs.slice(split));

// Sweep thresholds from the most confident down: overall figures include the rules' own "yes".
const scored = heldRows.map((x, k) => ({ p: sigmoid(treeScore(decisionTrees, x)), truth: labels[k]! }));
scored.sort((a, b) => b.p - a.p);
let tp = rules.yesTrue;
let fp = rules.yesFalse;
let best = { f1: 0, threshold: 1, precision: 0, recall: 0 };
for (const s of scored) {
  if (s.truth) tp++;
  else fp++;
  const precision = tp / (tp + fp);
  const recall = tp / rules.positives;
  const f1 = (2 * precision * recall) / (precision + recall);
  if (precision >= TARGET_PRECISION && f1 > best.f1) best = { f1, threshold: s.p, precision, recall };
}
console.log(`held-out train: threshold ${best.threshold.toFixed(4)} precision ${best.precision.toFixed(3)} recall ${best.recall.toFixed(3)} f1 ${best.f1.toFixed(3)}`);

// The band [JUDGE_THRESHOLD, RESPOND_THRESHOLD): walk down from the respond threshold while the band stays worth judging.
const band = { threshold: best.threshold, judged: 0, replies: 0 };
let judged = 0;
let replies = 0;
for (const s of scored) {
  if (s.p >= best.threshold) continue;
  judged++;
  if (s.truth) replies++;
  if (replies / judged >= JUDGE_BAND_PRECISION) Object.assign(band, { threshold: s.p, judged, replies });
}
console.log(`judge band: from ${band.threshold.toFixed(4)}, ${band.judged} of ${scored.length} held-out open pairs judged, ${band.replies} of them replies (${(band.replies / Math.max(1, band.judged)).toFixed(3)})`);

const round = (w: number[]): string => `[${w.map((x) => Number(x.toFixed(4))).join(", ")}]`;
const comment = (names: readonly string[], w: number[]): string =>
  names.map((n, i) => `//   ${n}: ${w[i]!.toFixed(4)}`).join("\n");
writeFileSync(
  WEIGHTS_PATH,
  `/**
 * @module
 * GENERATED by bench/decision/train.ts from the train split of shared/data/irc-replies; do not edit by hand.
 * Regenerate: node bench/decision/train.ts   (deterministic; then check with node bench/decision/run.ts --split dev)
 * Held-out train figures (last ${HELD_OUT_SHARE * 100}% of the logs, not fitted) at RESPOND_THRESHOLD: precision ${best.precision.toFixed(3)}, recall ${best.recall.toFixed(3)}, F1 ${best.f1.toFixed(3)}.
 */

// Stage 1, one weight per CANDIDATE_FEATURES entry:
${comment(CANDIDATE_FEATURES, candidateWeights)}
export const CANDIDATE_WEIGHTS: readonly number[] = ${round(candidateWeights)};

// Stage 2: ${BOOST.trees} boosted trees of depth ${TREE_DEPTH} over DECISION_FEATURES (see lib/decide/trees.ts).
export const DECISION_TREES = {
  base: ${decisionTrees.base.toFixed(4)},
  features: [${decisionTrees.features.join(", ")}],
  thresholds: ${round(decisionTrees.thresholds)},
  leaves: ${round(decisionTrees.leaves)},
} as const;

export const RESPOND_THRESHOLD = ${best.threshold.toFixed(4)};
/** Scores in [JUDGE_THRESHOLD, RESPOND_THRESHOLD) go to the LLM judge when it is on: held-out train, ${band.judged} of ${scored.length} open pairs, ${band.replies} real replies. */
export const JUDGE_THRESHOLD = ${band.threshold.toFixed(4)};
`,
);
console.log(`wrote ${WEIGHTS_PATH}`);
