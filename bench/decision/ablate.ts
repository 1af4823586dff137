/**
 * @module
 * Ablation of the learned tier's features under leave-logs-out cross-validation on train: the whole model, then
 * the model refitted without each group of features (each channel-relative feature on its own), each scored at the
 * target precision's operating point on its own calibrated out-of-fold scores, and by the log-loss of those scores.
 * A group whose removal neither lowers recall at that precision nor raises the log-loss does not help. `npm run
 * bench:decision -- --ablate` (needs the train split).
 */
import { DECISION_FEATURES } from "../../lib/decide/decision-features.ts";
import { CHAIN_FEATURES } from "../../lib/decide/chains.ts";
import type { BoostOptions } from "./boost.ts";
import { ABLATION, CALIBRATION_CLIP, PRECISION_STANDARD_ERRORS, TARGET_PRECISION, TREE_SETTINGS } from "./choices.ts";
import { chooseOperatingPoint, countAt, crossCalibrate, outOfFoldMargins, rates } from "./cv.ts";
import { crossValidationRows } from "./stage1.ts";

type Feature = (typeof DECISION_FEATURES)[number];

/** Features that say one thing, removed together (one of them alone is mostly stood in for by the others). */
const FEATURE_GROUPS: Readonly<Record<string, readonly Feature[]>> = {
  "names (who is addressed)": [
    "lead_candidate",
    "named_candidate",
    "lead_other",
    "named_other",
    "nicked_candidate",
    "nicked_other",
  ],
  "speaker order": [
    "rank_1",
    "rank_2",
    "log_rank",
    "log_msgs_since",
    "spoke_since_author",
    "author_last_right_before_candidate",
    "author_new",
  ],
  "minutes since (absolute time)": ["log_minutes_since"],
  "who talked to whom": [
    "last_to_author",
    "last_to_other",
    "log_to_author",
    "author_prev_to_candidate",
    "log_author_to_candidate",
    "author_prev_to_other",
    "log_adjacent_turns",
    "last_to_author_recent",
    "adjacent_after_author",
    "log_others_to_author_since",
  ],
  "word overlap": ["overlap_last", "overlap_all"],
  "message shape": ["last_is_question", "m_question", "m_log_len", "m_thanks", "m_answer_word"],
  "speakers in view (absolute count)": ["log_speakers"],
  "standing against other candidates": ["candidate_score", "margin_over_best_other", "is_best", "log_competitors"],
  "whom the bot answered": ["answered_author_last", "answered_author_in_window"],
  "inferred reply chains": [...CHAIN_FEATURES],
};

export interface AblationRow {
  removed: string;
  features: number;
  recall: number;
  f1: number;
  precision: number;
  /** Mean log-loss of the calibrated out-of-fold scores over the open pairs: smoother than recall at one point. */
  logLoss: number;
}

function logLoss(scores: ArrayLike<number>, labels: readonly boolean[]): number {
  let sum = 0;
  for (let k = 0; k < labels.length; k++) {
    const p = Math.min(1 - 1e-12, Math.max(1e-12, scores[k]!));
    sum -= labels[k] ? Math.log(p) : Math.log(1 - p);
  }
  return sum / Math.max(1, labels.length);
}

/** One row of the table: the model with `keep`'s features and `boost`'s trees, at the operating point train.ts uses. */
function evaluate(
  cv: Awaited<ReturnType<typeof crossValidationRows>>,
  folds: number,
  boost: BoostOptions,
  removed: string,
  keep: number[],
): AblationRow {
  const { rows, perFold } = cv;
  const scores = crossCalibrate(rows, outOfFoldMargins(rows, folds, boost, keep, perFold), folds, CALIBRATION_CLIP);
  const point = chooseOperatingPoint(rows, scores, TARGET_PRECISION, 0, {
    folds,
    standardErrors: PRECISION_STANDARD_ERRORS,
  });
  const r = rates(countAt(rows, scores, point, () => true));
  const round = (x: number): number => Number(x.toFixed(4));
  return {
    removed,
    features: keep.length,
    recall: round(r.recall),
    f1: round(r.f1),
    precision: round(r.precision),
    logLoss: round(logLoss(scores, rows.labels)),
  };
}

const HEADER = `${"removed".padEnd(36)} ${"features".padStart(8)} ${"precision".padStart(9)} ${"recall".padStart(7)} ${"f1".padStart(7)} ${"log-loss".padStart(8)}`;
const line = (row: AblationRow): string =>
  `${row.removed.padEnd(36)} ${String(row.features).padStart(8)} ${row.precision.toFixed(4).padStart(9)} ${row.recall.toFixed(4).padStart(7)} ${row.f1.toFixed(4).padStart(7)} ${row.logLoss.toFixed(4).padStart(8)}`;
const ALL = DECISION_FEATURES.map((_, i) => i);

export async function ablate(file: string, log: (line: string) => void): Promise<AblationRow[]> {
  const { folds, boost } = ABLATION;
  const cv = await crossValidationRows(file, folds);
  log(
    `ablation on train, ${folds} leave-logs-out folds (stage 1 fitted per fold), ${boost.trees} trees at rate ${boost.learningRate}, at the operating point for precision ${TARGET_PRECISION}:`,
  );
  log(HEADER);
  const out: AblationRow[] = [];
  const at = (removed: string, keep: number[]): void => {
    out.push(evaluate(cv, folds, boost, removed, keep));
    log(line(out[out.length - 1]!));
  };
  at("(nothing: the whole model)", ALL);
  for (const [name, group] of Object.entries(FEATURE_GROUPS))
    at(
      name,
      ALL.filter((i) => !group.includes(DECISION_FEATURES[i]!)),
    );
  return out;
}

/** The trees' settings under the same cross-validation, every feature kept: `removed` names the setting. */
export async function tuneTrees(file: string, log: (line: string) => void): Promise<AblationRow[]> {
  const { folds } = ABLATION;
  const cv = await crossValidationRows(file, folds);
  log(
    `trees' settings on train, ${folds} leave-logs-out folds (stage 1 fitted per fold), at the operating point for precision ${TARGET_PRECISION}:`,
  );
  log(HEADER.replace("removed", "trees × rate"));
  return TREE_SETTINGS.map((boost) => {
    const row = evaluate(cv, folds, boost, `${boost.trees} × ${boost.learningRate}`, ALL);
    log(line(row));
    return row;
  });
}
