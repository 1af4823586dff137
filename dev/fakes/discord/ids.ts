/**
 * @module
 * Discord snowflakes for the fakes: the creation time in the top bits, a counter below, strictly increasing.
 */

export const DISCORD_EPOCH_MS = 1_420_070_400_000n;

export function snowflakes(): () => string {
  let counter = 0n;
  return () => {
    counter = (counter + 1n) % 4096n;
    return String(((BigInt(Date.now()) - DISCORD_EPOCH_MS) << 22n) | counter);
  };
}
