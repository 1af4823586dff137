/**
 * @module
 * Which search hits reach the prompt: those above the relevance threshold, not already in the prompt's window
 * (the current conversation's messages still in its log), not overlapping a passage already taken, best first
 * with a bonus for recent ones, until recall's token budget is spent. The chosen ones are returned oldest first.
 */
import { recallTokens, type RecalledPassage } from "./format.ts";

export interface SelectOptions {
  now: number;
  /** Hits scoring below this are not relevant enough (the scale depends on the index's query mode). */
  minScore: number;
  /** The conversation being answered and the time of the oldest message still in its log. */
  window: { conversationId: string; since: number };
  maxTokens: number;
}

/** A passage from today scores up to this share higher; the bonus halves every RECENCY_HALF_LIFE_DAYS. */
const RECENCY_BONUS = 0.2;
const RECENCY_HALF_LIFE_DAYS = 30;
const DAY_MS = 86_400_000;

export function selectRecalled(hits: RecalledPassage[], opts: SelectOptions): RecalledPassage[] {
  const ranked = hits
    .filter((hit) => hit.score >= opts.minScore && !inWindow(hit, opts.window))
    .map((hit) => ({
      hit,
      rank:
        hit.score *
        (1 + RECENCY_BONUS * 0.5 ** (Math.max(0, opts.now - hit.metadata.end) / DAY_MS / RECENCY_HALF_LIFE_DAYS)),
    }))
    .sort((a, b) => b.rank - a.rank);
  const chosen: RecalledPassage[] = [];
  let left = opts.maxTokens;
  for (const { hit } of ranked) {
    const cost = recallTokens([hit]);
    if (cost > left || chosen.some((c) => c.id === hit.id || overlaps(c, hit))) continue;
    chosen.push(hit);
    left -= cost;
  }
  return chosen.sort((a, b) => a.metadata.start - b.metadata.start);
}

function inWindow(hit: RecalledPassage, window: SelectOptions["window"]): boolean {
  return hit.metadata.conversation === window.conversationId && hit.metadata.end >= window.since;
}

/** Two passages of one conversation sharing messages: a summary, or an older cut of the same messages. */
function overlaps(a: RecalledPassage, b: RecalledPassage): boolean {
  return (
    a.metadata.conversation === b.metadata.conversation &&
    a.metadata.start <= b.metadata.end &&
    b.metadata.start <= a.metadata.end
  );
}
