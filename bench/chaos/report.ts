/**
 * @module
 * What bench/chaos prints (./run.ts): each figure, the problems found, and the promise counters that must be 0.
 */
import type { SendStats } from "./send.ts";

/** The counters of a broken promise: each must be 0. */
const PROMISE_COUNTERS = [
  "answered_twice",
  "unanswered",
  "lost_records",
  "misplaced",
  "leaks",
  "hostile_5xx",
  "hostile_broken",
  "invited_broken",
  "unapproved_calls",
  "confirmed_twice",
  "approved_unrun",
  "key_reused",
  "stop_continued",
] as const;

/** The promise counters that are not 0 (an unsettled queue counts as `unsettled`). */
export function brokenCounters(result: Record<string, unknown>, unsettled: boolean): Record<string, number> {
  const broken: Record<string, number> = {};
  for (const name of PROMISE_COUNTERS) {
    const n = result[name];
    if (typeof n === "number" && n > 0) broken[name] = n;
  }
  if (unsettled) broken.unsettled = 1;
  return broken;
}

export function printFigures(
  out: (line: string) => void,
  run: { seed: number; conversations: number; rate: number; seconds: number },
  stats: SendStats,
  seen: { lateRetries: number; logLines: number; publishes: number; prompts: number; posts: number },
  faults: Readonly<Record<string, readonly unknown[]>>,
  result: Record<string, unknown>,
): void {
  out(`bench:chaos  seed ${run.seed}, ${run.conversations} conversations, fault rate ${run.rate}, ${run.seconds} s`);
  const statuses = [...stats.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
  out(`  webhook deliveries ${stats.deliveries} (${statuses.join(", ")}), late Slack retries ${seen.lateRetries}`);
  out(
    `  read ${seen.logLines} log lines, ${seen.publishes} queue payloads, ${seen.prompts} prompts, ${seen.posts} posts`,
  );
  const perBoundary = Object.entries(faults).map(([k, v]) => `${k} ${v.length}`);
  out(`  faults injected ${result.faults_injected} (${perBoundary.join(", ")})`);
  for (const [name, value] of Object.entries(result))
    if (name !== "seed" && name !== "faults_injected")
      out(`  ${name.padEnd(16)} ${typeof value === "object" ? JSON.stringify(value) : value}`);
}

export function printProblems(problems: readonly string[]): void {
  const shown = problems.slice(0, 30);
  for (const p of shown) process.stderr.write(`  ${p}\n`);
  if (problems.length > shown.length) process.stderr.write(`  … and ${problems.length - shown.length} more\n`);
}
