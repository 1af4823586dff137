/**
 * @module
 * The first inbound message after redis-server lost its script cache (a restart, a failover, SCRIPT FLUSH): the
 * client's EVALSHA meets NOSCRIPT and it sends the script again with EVAL, one more round trip. Measured on a warm
 * Worker, next to the same kind of message right after, so the difference is the script cache's alone.
 */
import { costOf, type RedisCost } from "./phases.ts";
import { sendAtRate } from "./send.ts";
import type { Stack } from "./stack.ts";
import { percentile } from "./stats.ts";
import type { PlannedMessage } from "./traffic.ts";

export interface ScriptCacheCost {
  samples: number;
  /** Median acknowledgement time of the first message after the flush, and of the next one. */
  coldMs: number;
  warmMs: number;
  /** Redis cost of one cold and one warm message (the same in every sample). */
  cold: RedisCost;
  warm: RedisCost;
}

/** `mentions` come in pairs, each a new conversation: the first of a pair goes right after a flush. */
export async function coldScriptCache(
  stack: Stack,
  parleyUrl: string,
  mentions: readonly PlannedMessage[],
): Promise<ScriptCacheCost> {
  const coldMs: number[] = [];
  const warmMs: number[] = [];
  let cold: RedisCost | undefined;
  let warm: RedisCost | undefined;
  for (let i = 0; i + 1 < mentions.length; i += 2) {
    await stack.flushScripts();
    const first = await costOf(stack, () => sendAtRate(parleyUrl, [mentions[i]!], 1));
    const next = await costOf(stack, () => sendAtRate(parleyUrl, [mentions[i + 1]!], 1));
    coldMs.push(first.result[0]!.ms);
    warmMs.push(next.result[0]!.ms);
    cold ??= first;
    warm ??= next;
  }
  if (!cold || !warm) throw new Error("the script cache probe needs at least one pair of new mentions");
  return { samples: coldMs.length, coldMs: percentile(coldMs, 50), warmMs: percentile(warmMs, 50), cold, warm };
}
