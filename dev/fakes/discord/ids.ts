/**
 * @module
 * Discord snowflakes for the fakes: the creation time in the top bits, an increment below. One sequence for the whole
 * process, strictly increasing, as Discord's ids are: the REST fake and the Gateway fake both mint message ids, and a
 * message made in one after a message made in the other must sort after it (history reads page by `before=<id>`).
 */

export const DISCORD_EPOCH_MS = 1_420_070_400_000n;

let last = 0n;

export function nextSnowflake(): string {
  const now = (BigInt(Date.now()) - DISCORD_EPOCH_MS) << 22n;
  last = now > last ? now : last + 1n;
  return String(last);
}
