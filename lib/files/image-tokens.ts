/**
 * @module
 * What an image costs in model tokens, by OpenAI's published rule for `detail: "high"` (the images guide,
 * "Calculating costs", GPT-4o and 4.1 class models): scaled to fit 2048×2048, then its shortest side to 768, one
 * 512-pixel tile costs 170 tokens, plus 85 for the image. Counted before the call so the tenant's budget reserves
 * it (lib/limits/tenant-budget.ts), and when the server reports no usage.
 */

const FIT_SIDE = 2048;
const SHORT_SIDE = 768;
const TILE = 512;
const TOKENS_PER_TILE = 170;
const TOKENS_PER_IMAGE = 85;

export function imageTokens(width: number, height: number): number {
  let w = width;
  let h = height;
  if (w > FIT_SIDE || h > FIT_SIDE) {
    const ratio = Math.min(FIT_SIDE / w, FIT_SIDE / h);
    w = Math.floor(w * ratio);
    h = Math.floor(h * ratio);
  }
  // Only ever scaled down: a small image keeps its size (and its tiles).
  const shortest = Math.min(w, h);
  if (shortest > SHORT_SIDE) {
    const ratio = SHORT_SIDE / shortest;
    w = Math.floor(w * ratio);
    h = Math.floor(h * ratio);
  }
  return Math.ceil(w / TILE) * Math.ceil(h / TILE) * TOKENS_PER_TILE + TOKENS_PER_IMAGE;
}
