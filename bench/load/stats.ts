/**
 * @module
 * The arithmetic of bench/load: percentiles, and the total command count from Redis's own `INFO commandstats`.
 */

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * `calls=` per command from `INFO commandstats`, INFO itself left out (the bench's own reads). Redis counts the
 * commands a script runs as calls of their own, and a failed call (an EVALSHA answered NOSCRIPT) as a call too.
 */
export function commandCalls(commandstats: string): Map<string, number> {
  const calls = new Map<string, number>();
  for (const line of commandstats.split("\n")) {
    const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
    if (match && match[1] !== "info") calls.set(match[1]!, Number(match[2]));
  }
  return calls;
}

/** What ran between two `commandCalls` readings, per command, and in all. */
export function commandsBetween(
  before: ReadonlyMap<string, number>,
  after: ReadonlyMap<string, number>,
): { total: number; byCommand: Map<string, number> } {
  const byCommand = new Map<string, number>();
  for (const [name, n] of after) {
    const ran = n - (before.get(name) ?? 0);
    if (ran > 0) byCommand.set(name, ran);
  }
  return { total: [...byCommand.values()].reduce((a, b) => a + b, 0), byCommand };
}

export const round = (value: number, digits = 2) => Number(value.toFixed(digits));
