/**
 * @module
 * Precision and recall of "respond" on the hand-written bot-centred scenarios, with the LLM judge off (what the
 * bot does by default with the local model), and how many cases would go to the judge when it is on.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { decideResponse } from "../../lib/decide/decide.ts";
import { type Figures, count, emptyTally, figures } from "./metrics.ts";
import { BENCH_OPTIONS } from "./pairs.ts";
import { scenarioCases } from "./scenarios.ts";

const SCENARIOS_PATH = join(dirname(fileURLToPath(import.meta.url)), "bot-scenarios.jsonl");

export function scenarioFigures(path = SCENARIOS_PATH): { conversations: number; off: Figures; judged: number } {
  const cases = scenarioCases(path);
  const off = emptyTally();
  let judged = 0;
  for (const c of cases) {
    count(off, decideResponse(c.state, c.msg, c.bot, BENCH_OPTIONS).respond === "yes", c.expect);
    if (decideResponse(c.state, c.msg, c.bot, { ...BENCH_OPTIONS, useJudge: true }).respond === "judge") judged++;
  }
  return { conversations: new Set(cases.map((c) => c.scenario)).size, off: figures(off), judged };
}
