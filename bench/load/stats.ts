/**
 * @module
 * The arithmetic of bench/load: percentiles, and the total command count from Redis's own `INFO commandstats`.
 */

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Sum of `calls=` over every command but INFO itself (the bench's own reads). */
export function totalCommandCalls(commandstats: string): number {
  let total = 0;
  for (const line of commandstats.split("\n")) {
    const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
    if (match && match[1] !== "info") total += Number(match[2]);
  }
  return total;
}

export const round = (value: number, digits = 2) => Number(value.toFixed(digits));
