/**
 * @module
 * Who may IDENTIFY when. Discord lets a bot start `max_concurrency` sessions per 5 seconds: shard `id` belongs to
 * bucket `id % max_concurrency`, and a second IDENTIFY in the same bucket within 5 s is refused (op 9). Each shard
 * asks for a turn before it identifies; turns in one bucket are handed out apart, in the order asked, across
 * layouts (an old and a new layout share the buckets while a reshard runs). The 1,000 IDENTIFYs a day are the
 * bot's, not a shard's: past the budget no turn is given (going over would reset the bot's token).
 */
import { IDENTIFY_BUDGET, IDENTIFY_WINDOW_MS } from "./protocol.ts";

/**
 * Discord's window for one IDENTIFY per concurrency bucket (5 s), plus a margin: a turn starts the connect, and
 * the IDENTIFY goes out after the socket opened and HELLO came, later for one shard than for the next.
 */
const IDENTIFY_BUCKET_INTERVAL_MS = 5_000 + 1_000;

/** The turns handed out, kept by whoever serializes the asks (the coordinating Durable Object). */
export interface TurnStore {
  last(bucket: number): Promise<number | undefined>;
  setLast(bucket: number, at: number): Promise<void>;
  /** The times of the turns of the last 24 hours, every bucket together. */
  recent(): Promise<number[]>;
  setRecent(times: number[]): Promise<void>;
}

export class IdentifyTurns {
  #store: TurnStore;
  #intervalMs: number;

  constructor(store: TurnStore, intervalMs = IDENTIFY_BUCKET_INTERVAL_MS) {
    this.#store = store;
    this.#intervalMs = intervalMs;
  }

  /**
   * Reserves shard `shardId`'s next turn; returns how long (ms) to wait for it, or null when the bot's IDENTIFY
   * budget for the last 24 hours is spent. Calls must not overlap.
   */
  async reserve(shardId: number, maxConcurrency: number, now: number): Promise<number | null> {
    const recent = (await this.#store.recent()).filter((t) => t > now - IDENTIFY_WINDOW_MS);
    if (recent.length >= IDENTIFY_BUDGET) return null;
    const bucket = shardId % Math.max(1, maxConcurrency);
    const last = await this.#store.last(bucket);
    const at = last === undefined ? now : Math.max(now, last + this.#intervalMs);
    await this.#store.setLast(bucket, at);
    await this.#store.setRecent([...recent, at]);
    return at - now;
  }
}
