/**
 * @module
 * The decider's stage 1 (a logistic regression scoring "m answers candidate Q" for any participant) fitted on a
 * set of train logs. It learns from every pair, named ones included. Cross-validation fits it once per fold, on
 * the other folds' logs only, so that the stage-2 rows a held-out log is scored on (its candidate scores, its
 * margin over the others, its inferred reply chains) come from weights that never saw that log.
 */
import { readChannel } from "../../lib/decide/channel.ts";
import { candidateFeatures } from "../../lib/decide/signals.ts";
import { readLogs } from "./corpus.ts";
import { foldOfLog } from "./cv.ts";
import { fitLogistic } from "./logistic.ts";
import { decisionPairs } from "./pairs.ts";
import { type TrainRows, trainRows } from "./rows.ts";

interface CandidateRows {
  rows: Float64Array[];
  labels: boolean[];
  /** Per pair: its log's index (logs in file order, as in TrainRows). */
  log: number[];
}

async function candidateRows(file: string): Promise<CandidateRows> {
  const out: CandidateRows = { rows: [], labels: [], log: [] };
  let k = 0;
  for await (const log of readLogs(file)) {
    for (const pair of decisionPairs(log)) {
      const view = readChannel(pair.state, pair.bot);
      out.rows.push(Float64Array.from(candidateFeatures(view, view.botId)));
      out.labels.push(pair.truth);
      out.log.push(k);
    }
    k++;
  }
  return out;
}

/** Stage 1 fitted on the logs `use` keeps, rounded as the weights file stores them (what the Worker computes). */
function fitStage1(c: CandidateRows, use: (log: number) => boolean = () => true): number[] {
  const keep = c.log.flatMap((log, k) => (use(log) ? [k] : []));
  const weights = fitLogistic(
    keep.map((k) => c.rows[k]!),
    keep.map((k) => c.labels[k]!),
  );
  return weights.map((w) => Number(w.toFixed(4)));
}

/**
 * Each fold's stage-2 rows under a stage 1 fitted without that fold's logs: the pairs are the same as `all`'s (the
 * rules do not read the weights), only their features differ. Cached on disk like every TrainRows.
 */
async function foldRows(file: string, c: CandidateRows, all: TrainRows, folds: number): Promise<TrainRows[]> {
  const out: TrainRows[] = [];
  for (let fold = 0; fold < folds; fold++) {
    const rows = await trainRows(
      file,
      fitStage1(c, (log) => foldOfLog(log, folds) !== fold),
    );
    if (rows.labels.length !== all.labels.length)
      throw new Error(`fold ${fold}: ${rows.labels.length} open pairs, not ${all.labels.length}`);
    out.push(rows);
  }
  return out;
}

/** What cross-validation reads: the rows under the Worker's stage 1 (all logs) and each fold's under its own. */
export async function crossValidationRows(
  file: string,
  folds: number,
): Promise<{ candidateWeights: number[]; pairs: number; rows: TrainRows; perFold: TrainRows[] }> {
  const candidates = await candidateRows(file);
  const candidateWeights = fitStage1(candidates);
  const rows = await trainRows(file, candidateWeights);
  const perFold = await foldRows(file, candidates, rows, folds);
  return { candidateWeights, pairs: candidates.labels.length, rows, perFold };
}
