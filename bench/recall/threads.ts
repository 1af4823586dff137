/**
 * @module
 * The conversations inside one irc-replies log: messages joined by gold reply links (a message and the one it
 * answers are in the same thread), each thread in log order.
 */
import type { ChatLine, ChatLog } from "../decision/corpus.ts";

export function threadsOf(log: ChatLog): ChatLine[][] {
  const root = new Map<number, number>();
  const find = (i: number): number => {
    let r = i;
    while (root.get(r) !== undefined && root.get(r) !== r) r = root.get(r)!;
    root.set(i, r);
    return r;
  };
  for (const [child, parents] of log.parents) {
    for (const parent of parents) {
      const a = find(child);
      const b = find(parent);
      if (a !== b) root.set(Math.max(a, b), Math.min(a, b));
    }
  }
  const threads = new Map<number, ChatLine[]>();
  for (const line of log.lines) {
    if (!root.has(line.i)) continue;
    const r = find(line.i);
    threads.set(r, [...(threads.get(r) ?? []), line]);
  }
  return [...threads.values()].filter((t) => t.length > 1);
}
