/**
 * @module
 * Fits the decider's learned tier on the TRAIN split only and writes lib/decide/weights.ts.
 * Deterministic: Newton's method, logs in file order, no randomness.
 * node bench/decision/train.ts [--file PATH] [--folds 8]   (default: shared/data/irc-replies/train.jsonl, see
 * ./convert.ts)
 * Stage 1 (logistic regression) scores "m answers candidate Q" symmetrically for any participant;
 * stage 2 (boosted trees) adds what the bot knows of itself, its margin over the best other candidate, the inferred
 * reply chains and how the channel talks, fitted on the pairs the rules leave open. Every choice is made by
 * leave-logs-out cross-validation (cv.ts): each log is scored by trees fitted on the other folds' logs, over features
 * from a stage 1 fitted on those logs too (stage1.ts), and calibrated by a Platt fit on the other folds' scores; the
 * respond threshold and the continuation path's floor are chosen on those scores so that the folds' mean precision
 * less one standard error reaches TARGET_PRECISION, the judge band below them; the per-fold figures at that point
 * are written beside the weights. The stage 1 and the trees the Worker runs are then fitted on every train log.
 */
import { CANDIDATE_FEATURES } from "../../lib/decide/signals.ts";
import { defineCommand, parseCommandLine, requireFile } from "../../dev/cli.ts";
import {
  chooseOperatingPoint,
  countAt,
  crossCalibrate,
  fitPlatt,
  operatingPoints,
  outOfFoldMargins,
  rates,
} from "./cv.ts";
import { busyQuiet, foldSpread } from "./cv-figures.ts";
import { fitBinned } from "./boost.ts";
import {
  BOOST,
  CALIBRATION_CLIP,
  JUDGE_BAND_PRECISION,
  PRECISION_STANDARD_ERRORS,
  TARGET_PRECISION,
} from "./choices.ts";
import { dataPath, missingSplitHint } from "./paths.ts";
import { CONTINUATION_CODE } from "./rows.ts";
import { crossValidationRows } from "./stage1.ts";
import { writeWeights } from "./weights-file.ts";

const command = defineCommand({
  name: "node bench/decision/train.ts",
  summary:
    "Refits the decider's learned tier (lib/decide/weights.ts) on the train split only (deterministic; minutes).",
  options: {
    file: {
      type: "string",
      valueName: "path",
      description: "the train split in the irc-replies format (default: shared/data/irc-replies/train.jsonl)",
    },
    folds: { type: "string", valueName: "n", default: "8", description: "leave-logs-out folds for every choice" },
  },
});
const values = parseCommandLine(command);
const wanted = values.file ?? dataPath("train");
const file = requireFile(command.name, wanted, missingSplitHint(wanted));
const FOLDS = Number(values.folds);

// Stage 1 scores any participant in any channel, so it learns from every pair, named ones included; the Worker's
// is fitted on every train log, and each fold's (for the out-of-fold scores) on the other folds' logs only.
const { candidateWeights, pairs, rows, perFold } = await crossValidationRows(file, FOLDS);
console.log(
  `stage 1 fitted on ${pairs} pairs (${CANDIDATE_FEATURES.length} weights), and once per fold without its logs`,
);
console.log(`pairs open to the model: ${rows.labels.length} in ${rows.rules.length} logs, ${FOLDS} folds`);
const margins = outOfFoldMargins(rows, FOLDS, BOOST, undefined, perFold);
const scores = crossCalibrate(rows, margins, FOLDS, CALIBRATION_CLIP);
// The floor of the continuation path: IRC has no bots, so its pairs say little of what the path is for; it is
// raised above "every strong continuation" only if that pays by more than one standard error of recall across folds.
const guard = { folds: FOLDS, standardErrors: PRECISION_STANDARD_ERRORS };
const best = chooseOperatingPoint(rows, scores, TARGET_PRECISION, 0, guard);
const standardError = foldSpread(rows, scores, best, FOLDS).recall.sd / Math.sqrt(FOLDS);
for (const p of operatingPoints(rows, scores, TARGET_PRECISION, guard)) {
  console.log(
    `  continuation floor ${p.continuationFloor}: threshold ${p.threshold.toFixed(4)}, precision ${p.precision.toFixed(4)}, recall ${p.recall.toFixed(4)}`,
  );
}
const point = chooseOperatingPoint(rows, scores, TARGET_PRECISION, standardError, guard);
console.log(
  `out of fold (one standard error of recall ${standardError.toFixed(4)}): threshold ${point.threshold.toFixed(4)}, continuation floor ${point.continuationFloor}, precision ${point.precision.toFixed(3)}, recall ${point.recall.toFixed(3)}`,
);

// Where each path stands at that point, pooled out of fold: the name tier (the rules' own "yes"), the model, and
// the continuation path where it answers what the model alone would not.
const r3 = (x: number): number => Number(x.toFixed(3));
const path = (tp: number, fp: number) => ({ answered: tp + fp, precision: r3(tp / Math.max(1, tp + fp)) });
const nameTier = rows.rules.reduce((t, r) => ({ tp: t.tp + r.yesTrue, fp: t.fp + r.yesFalse }), { tp: 0, fp: 0 });
const model = { tp: 0, fp: 0 };
const continued = { tp: 0, fp: 0 };
scores.forEach((s, k) => {
  const tally =
    s >= point.threshold
      ? model
      : rows.continuation[k] === CONTINUATION_CODE.strong && s >= point.continuationFloor
        ? continued
        : null;
  if (tally !== null) rows.labels[k] ? tally.tp++ : tally.fp++;
});
const pooled = rates(countAt(rows, scores, point, () => true));
const crossValidation = {
  ...foldSpread(rows, scores, point, FOLDS),
  targetPrecision: TARGET_PRECISION,
  pooled: { precision: r3(pooled.precision), recall: r3(pooled.recall), f1: r3(pooled.f1) },
  paths: {
    nameTier: path(nameTier.tp, nameTier.fp),
    model: path(model.tp, model.fp),
    continuation: path(continued.tp, continued.fp),
  },
  calibration: busyQuiet(rows, scores, point),
};
console.log(`across folds: ${JSON.stringify(crossValidation)}`);

// The band [JUDGE_THRESHOLD, RESPOND_THRESHOLD): walk down from the respond threshold while it stays worth judging.
const below = Array.from(scores, (p, k) => ({ p, truth: rows.labels[k]! }))
  .filter((s) => s.p < point.threshold)
  .sort((a, b) => b.p - a.p);
const band = { threshold: point.threshold, judged: 0, replies: 0 };
let judged = 0;
let replies = 0;
for (const s of below) {
  judged++;
  if (s.truth) replies++;
  if (replies / judged >= JUDGE_BAND_PRECISION) Object.assign(band, { threshold: s.p, judged, replies });
}
console.log(
  `judge band: from ${band.threshold.toFixed(4)}, ${band.judged} of ${scores.length} open pairs judged, ${band.replies} of them replies`,
);

// What the Worker runs: trees fitted on every train log, calibrated by a Platt fit on all the out-of-fold scores.
const written = writeWeights({
  candidateWeights,
  trees: fitBinned(rows.binned, rows.labels, null, BOOST),
  calibration: fitPlatt(margins, rows.labels, CALIBRATION_CLIP),
  point,
  judgeThreshold: band.threshold,
  judgeNote: `out of fold, ${band.judged} of ${scores.length} open pairs, ${band.replies} real replies`,
  crossValidation,
});
console.log(`wrote ${written}`);
