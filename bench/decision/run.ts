/**
 * @module
 * bench/decision: replays irc-replies logs through the Worker's own decideResponse for every (m, P) pair of the
 * README's task and prints precision / recall / F1 of "respond", the reasons that fired, two baselines computed in
 * the same run, the name tier split into address and reference, the cross-validated spread the training measured,
 * the hand-written bot-centred scenarios (bot-scenarios.jsonl), and the decider's CPU per decision. The first five
 * lines are the file, the header, the split's figures, train's cross-validated ones and the gap between them (with a
 * warning when the precision gap is over 0.02): CI prints them.
 *   node bench/decision/run.ts --split dev | --file PATH  [--json]
 *   node bench/decision/run.ts --ablate   (ablation of the features under cross-validation on train; minutes)
 *   node bench/decision/run.ts --tune-trees   (the trees' settings compared the same way)
 */
import { decideResponse } from "../../lib/decide/decide.ts";
import { botNameUse } from "../../lib/decide/explicit.ts";
import { CROSS_VALIDATION } from "../../lib/decide/weights.ts";
import { ablate, tuneTrees } from "./ablate.ts";
import { cvRows, gapOf } from "./cv-report.ts";
import type { DecisionReason } from "../../lib/decide/reasons.ts";
import { defineCommand, parseCommandLine, requireFile } from "../../dev/cli.ts";
import { BASELINES } from "./baselines.ts";
import { readLogs } from "./corpus.ts";
import { type Figures, type Tally, count, emptyTally, figures } from "./metrics.ts";
import { BENCH_OPTIONS, type DecisionPair, decisionPairs } from "./pairs.ts";
import { dataPath, missingSplitHint } from "./paths.ts";
import { scenarioFigures } from "./scenario-figures.ts";

const command = defineCommand({
  name: "npm run bench:decision",
  summary:
    'Replays irc-replies logs through the Worker\'s decideResponse and prints precision, recall and F1 of "respond" ' +
    "beside two baselines, the reasons that fired, what the LLM judge would get, and the decider's CPU cost.",
  options: {
    split: {
      type: "string",
      valueName: "name",
      description: "dev (default; ships with the bench) or train (converted from the corpus)",
    },
    file: {
      type: "string",
      valueName: "path",
      description: "any log file in the irc-replies format instead (.jsonl or .jsonl.gz)",
    },
    json: { type: "boolean", default: false, description: "end with one JSON line of the figures" },
    ablate: {
      type: "boolean",
      default: false,
      description:
        "instead, refit the model under cross-validation on train without each feature group and print what each adds",
    },
    "tune-trees": {
      type: "boolean",
      default: false,
      description: "instead, compare the trees' settings under cross-validation on train",
    },
  },
});
const values = parseCommandLine(command);
if (values.ablate || values["tune-trees"]) {
  const train = requireFile(command.name, values.file ?? dataPath("train"), missingSplitHint(dataPath("train")));
  const rows = await (values.ablate ? ablate : tuneTrees)(train, (line) => console.log(line));
  if (values.json) console.log(JSON.stringify({ [values.ablate ? "ablation" : "trees"]: rows }));
  process.exit(0);
}
const wanted = values.file ?? dataPath(values.split ?? "dev");
const file = requireFile(command.name, wanted, missingSplitHint(wanted));

const started = performance.now();
let decideMs = 0;
const decider = emptyTally();
const byReason = new Map<DecisionReason, Tally>();
const baselines = new Map(Object.keys(BASELINES).map((name) => [name, emptyTally()]));
/** What USE_LLM_JUDGE would cost: the pairs the decider would hand to the judge (none is sent; no LLM here). */
const JUDGE_ON = { ...BENCH_OPTIONS, useJudge: true };
const judged = { pairs: 0, replies: 0 };
/** The name tier: the bot's name used to address it (answered at once) or to talk about it (left to the model). */
const nameTier = { address: emptyTally(), reference: emptyTally(), referenceAnsweredAll: emptyTally() };
/** Every SAMPLE_EVERY-th pair is timed again once the code is warm: the steady cost a Worker pays. */
const SAMPLE_EVERY = 10;
const sample: DecisionPair[] = [];
for await (const log of readLogs(file)) {
  for (const pair of decisionPairs(log)) {
    if (decider.pairs % SAMPLE_EVERY === 0) sample.push(pair);
    const t0 = performance.now();
    const decision = decideResponse(pair.state, pair.msg, pair.bot, BENCH_OPTIONS);
    decideMs += performance.now() - t0;
    const respond = decision.respond === "yes";
    count(decider, respond, pair.truth);
    const reasonTally = byReason.get(decision.reason) ?? emptyTally();
    count(reasonTally, respond, pair.truth);
    byReason.set(decision.reason, reasonTally);
    if (decision.reason === "no_trigger" && decision.score !== undefined) {
      if (decideResponse(pair.state, pair.msg, pair.bot, JUDGE_ON).respond === "judge") {
        judged.pairs++;
        if (pair.truth) judged.replies++;
      }
    }
    for (const [name, rule] of Object.entries(BASELINES)) count(baselines.get(name)!, rule(pair), pair.truth);
    const named = botNameUse(pair.msg.text, pair.bot);
    if (named !== null) count(nameTier[named.use], respond, pair.truth);
    if (named?.use === "reference") count(nameTier.referenceAnsweredAll, true, pair.truth);
  }
}

/** The name column fits the longest row name, so that every figure sits under its heading. */
const NAME_WIDTH = Math.max(
  ...["decider, train CV (8 folds)", ...[...baselines.keys()].map((name) => `baseline ${name}`)].map(
    (name) => name.length,
  ),
);
const row = (name: string, f: Figures): string =>
  `${name.padEnd(NAME_WIDTH)} ${f.precision.toFixed(3).padStart(11)} ${f.recall.toFixed(3).padStart(11)} ${f.f1.toFixed(3).padStart(11)} ${String(f.pairs).padStart(8)}`;
const splitName = values.file === undefined ? (values.split ?? "dev") : "file";
const cv = CROSS_VALIDATION;
console.log(`file: ${file}`);
console.log(
  `${"".padEnd(NAME_WIDTH)} ${"precision".padStart(11)} ${"recall".padStart(11)} ${"f1".padStart(11)} ${"pairs".padStart(8)}`,
);
for (const line of cvRows(cv, figures(decider), splitName, NAME_WIDTH)) console.log(line);
for (const [name, tally] of baselines) console.log(row(`baseline ${name}`, figures(tally)));
console.log("\nby reason            decided   replies   (replies: pairs where m does answer P)");
for (const [reason, t] of [...byReason].sort((a, b) => b[1].pairs - a[1].pairs)) {
  console.log(
    `${reason.padEnd(20)} ${String(t.pairs).padStart(7)} ${String(t.truePositives + t.falseNegatives).padStart(9)}`,
  );
}
const missed = decider.falseNegatives;
console.log(
  `\nwith the LLM judge on: ${judged.pairs} of ${decider.pairs} pairs (${((100 * judged.pairs) / Math.max(1, decider.pairs)).toFixed(1)}%) ` +
    `would be judged; ${judged.replies} of them are real replies (${(judged.replies / Math.max(1, judged.pairs)).toFixed(3)}), ` +
    `${judged.replies} of the ${missed} replies the decider misses`,
);
const nameLine = (label: string, t: Tally): string => {
  const f = figures(t);
  return `${label}: ${t.pairs} pairs, ${t.truePositives + t.falseNegatives} real replies; answered ${t.truePositives + t.falsePositives}, precision ${f.precision.toFixed(3)}, recall ${f.recall.toFixed(3)}`;
};
console.log(`\nname tier (the bot's name in the message)`);
console.log(nameLine("  as address (answered at once)", nameTier.address));
console.log(nameLine("  as reference (left to the model)", nameTier.reference));
console.log(
  `  answering every reference instead would have precision ${figures(nameTier.referenceAnsweredAll).precision.toFixed(3)}`,
);

const spread = (s: { mean: number; sd: number; min: number; max: number }): string =>
  `${s.mean.toFixed(3)} ± ${s.sd.toFixed(3)} (${s.min.toFixed(3)}–${s.max.toFixed(3)})`;
const path = (p: { answered: number; precision: number }): string =>
  `${p.answered} answered, precision ${p.precision.toFixed(3)}`;
console.log(
  `\ncross-validated on train (${cv.folds} leave-logs-out folds over ${cv.logs} logs, as bench/decision/train.ts measured at the ` +
    `shipped operating point, chosen so that the folds' mean precision less one standard error reaches ${cv.targetPrecision}): precision ${spread(cv.precision)}, recall ${spread(cv.recall)}, ` +
    `F1 ${spread(cv.f1)}\n  pooled out of fold: name tier ${path(cv.paths.nameTier)}; model ${path(cv.paths.model)}; ` +
    `continuation path ${path(cv.paths.continuation)}\n  busier half of the logs (≥ ${cv.calibration.medianMessagesPerMinute} messages a minute): ` +
    `precision ${cv.calibration.busy.precision.toFixed(3)}, recall ${cv.calibration.busy.recall.toFixed(3)}; quieter half: ` +
    `precision ${cv.calibration.quiet.precision.toFixed(3)}, recall ${cv.calibration.quiet.recall.toFixed(3)}`,
);
const onSplit = (reason: DecisionReason): string => {
  const t = byReason.get(reason) ?? emptyTally();
  return `${t.truePositives + t.falsePositives} answered, precision ${figures(t).precision.toFixed(3)}`;
};
console.log(`  on ${splitName}: model ${onSplit("recent_followup")}; continuation path ${onSplit("continuation")}`);

const scenarios = scenarioFigures();
console.log(
  `\nbot-centred scenarios (bench/decision/bot-scenarios.jsonl, ${scenarios.conversations} conversations, ${scenarios.off.pairs} cases): ` +
    `precision ${scenarios.off.precision.toFixed(3)}, recall ${scenarios.off.recall.toFixed(3)}, F1 ${scenarios.off.f1.toFixed(3)} (no LLM judge); ` +
    `with the judge on, ${scenarios.judged} cases would go to it`,
);

// CPU, not wall time: the machine is shared, and CPU is what a Worker is billed and limited by.
for (const pair of sample) decideResponse(pair.state, pair.msg, pair.bot, BENCH_OPTIONS);
const cpuStart = process.cpuUsage();
const wallStart = performance.now();
/** Ten rounds, over half a second of CPU: on a shared machine a shorter window swings with the neighbours' load. */
const ROUNDS = 10;
for (let r = 0; r < ROUNDS; r++)
  for (const pair of sample) decideResponse(pair.state, pair.msg, pair.bot, BENCH_OPTIONS);
const cpu = process.cpuUsage(cpuStart);
const decisions = ROUNDS * Math.max(1, sample.length);
const cpuMicros = (cpu.user + cpu.system) / decisions;
const wallMicros = ((performance.now() - wallStart) * 1000) / decisions;
console.log(
  `\ndecideResponse CPU: ${cpuMicros.toFixed(1)} µs per decision warm (${sample.length} messages × ${ROUNDS}; wall ${wallMicros.toFixed(1)} µs), ` +
    `${((decideMs * 1000) / Math.max(1, decider.pairs)).toFixed(1)} µs wall over the whole run (cold start included); run took ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
if (values.json) {
  const out = {
    split: splitName,
    decider: figures(decider),
    baselines: Object.fromEntries([...baselines].map(([name, t]) => [name, figures(t)])),
    judge: judged,
    nameTier: { address: figures(nameTier.address), reference: figures(nameTier.reference) },
    crossValidation: cv,
    gap: gapOf(cv, figures(decider), splitName),
    scenarios: { ...scenarios.off, judged: scenarios.judged },
    cpuMicrosPerDecision: Number(cpuMicros.toFixed(1)),
  };
  console.log(JSON.stringify(out));
}
