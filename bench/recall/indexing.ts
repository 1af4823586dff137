/**
 * @module
 * What indexing costs the memory job, replayed on the corpus without a server: each log is one long conversation,
 * the bot answers every ANSWER_EVERY messages, and each memory job upserts the passages that end at or after the
 * first message it has not seen (the growing last passage, and any passage closed since). Also checks that passage
 * ids are stable as the conversation grows: every id ever upserted must still be a passage at the end. The corpus
 * has minute timestamps; messages get distinct milliseconds, as platforms give them.
 */
import type { StoredMessage } from "../../lib/message.ts";
import { conversationPassages, type PassageSource } from "../../lib/memory/recall/build-passages.ts";
import type { ChatLog } from "../decision/corpus.ts";
import { BENCH_BOT, BENCH_PLACE } from "./cases.ts";

const ANSWER_EVERY = 10;

export interface IndexingCost {
  memoryJobs: number;
  upserted: number;
  /** Ids upserted by some job that the final cut no longer has: duplicates left in the index. */
  orphaned: number;
}

export function addIndexingCost(cost: IndexingCost, log: ChatLog): void {
  const source: PassageSource = {
    key: BENCH_PLACE,
    visibility: "public",
    conversationId: log.source,
    bot: BENCH_BOT,
    forgotten: new Set(),
  };
  let last = -Infinity;
  const messages: StoredMessage[] = log.lines.map((l) => {
    last = Math.max(l.ts, last + 1);
    return { id: String(l.i), role: "user", authorId: l.author, authorName: l.author, text: l.text, ts: last };
  });
  const upsertedIds = new Set<string>();
  for (let seen = 0; seen < messages.length; seen += ANSWER_EVERY) {
    const upTo = Math.min(messages.length, seen + ANSWER_EVERY);
    const since = messages[seen]!.ts;
    const changed = conversationPassages(source, messages.slice(0, upTo)).filter((p) => p.metadata.end >= since);
    cost.memoryJobs++;
    cost.upserted += changed.length;
    for (const p of changed) upsertedIds.add(p.id);
  }
  const final = new Set(conversationPassages(source, messages).map((p) => p.id));
  cost.orphaned += [...upsertedIds].filter((id) => !final.has(id)).length;
}
