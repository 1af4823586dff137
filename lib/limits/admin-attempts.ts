/**
 * @module
 * Failed attempts at the admin view, counted per client address (Cloudflare's CF-Connecting-IP). Past the allowance
 * the address gets 429 with Retry-After until the window ends, right token or not, so a token cannot be guessed
 * online even when it is short of the 32 characters the settings demand.
 */
import type { Services } from "../services.ts";
import { limitersFor } from "./limiters.ts";

/** Seconds the address must wait; null while it may still try. */
export async function adminLockout(rt: Services, address: string): Promise<number | null> {
  const { remaining, reset } = await limitersFor(rt).adminFailures.remaining(address);
  return remaining > 0 ? null : secondsUntil(rt, reset);
}

export async function countAdminFailure(rt: Services, address: string): Promise<void> {
  await limitersFor(rt).adminFailures.limit(address);
}

function secondsUntil(rt: Services, reset: number): number {
  return Math.max(1, Math.ceil((reset - rt.now()) / 1000));
}
