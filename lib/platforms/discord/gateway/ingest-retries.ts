/**
 * @module
 * The Gateway never delivers a dispatch twice, so a MESSAGE_CREATE whose ingest failed (Redis or QStash down, the
 * job not published), or a ✅ or ❌ whose decision or continuation failed, would be lost. It is kept in the Gateway
 * object's own storage and tried again with growing delays (a Durable Object alarm wakes the object); the ingest
 * script tells a message recorded earlier but never published apart from one already handled, and an approval
 * decided earlier publishes the same continuation again (deduplicated), so a retry does what is missing and nothing
 * twice.
 */
import { errorMessage, type Logger } from "../../../log.ts";

/** A dispatch waiting for another try. `data` is the dispatch as the Gateway sent it. */
export interface PendingIngest {
  id: string;
  /** The dispatch's name; absent in entries kept before reactions were (each a MESSAGE_CREATE). */
  event?: string;
  data: unknown;
  botUserId: string;
  /** Tries so far, the first included. */
  attempts: number;
  /** When the next try is due, ms since the epoch. */
  nextAt: number;
}

/** Where the pending messages live: the Durable Object's storage, and its alarm to wake it. */
export interface PendingStore {
  all(): Promise<PendingIngest[]>;
  put(entry: PendingIngest): Promise<void>;
  delete(id: string): Promise<void>;
  /** Wake the object at `at` (ms) to try again; replaces an earlier wake-up. */
  wakeAt(at: number): Promise<void>;
}

export interface IngestRetriesOptions {
  store: PendingStore;
  /** Does the work of one dispatch (`event`); throws when it must be tried again. */
  ingest(event: string, data: unknown, botUserId: string): Promise<void>;
  log: Logger;
  now?: () => number;
}

/** 2 s, 8 s, 32 s, 2 min, 8.5 min, 34 min after the failed tries: about 45 minutes in all, then it is given up. */
const FIRST_DELAY_MS = 2_000;
const MESSAGE_CREATE = "MESSAGE_CREATE";
const dispatchOf = (entry: PendingIngest): string => entry.event ?? MESSAGE_CREATE;
const DELAY_FACTOR = 4;
export const MAX_INGEST_ATTEMPTS = 7;

export class IngestRetries {
  #opts: IngestRetriesOptions;

  constructor(opts: IngestRetriesOptions) {
    this.#opts = opts;
  }

  /** Does the work of a dispatch just received; keeps it for later if that fails. */
  async deliver(data: unknown, botUserId: string, event = MESSAGE_CREATE): Promise<void> {
    try {
      await this.#opts.ingest(event, data, botUserId);
    } catch (err) {
      await this.#keep({ id: crypto.randomUUID(), event, data, botUserId, attempts: 1, nextAt: 0 }, err);
    }
  }

  /** Tries every pending message that is due (the alarm's work), then sets the next wake-up. */
  async retryDue(): Promise<void> {
    const now = this.#now();
    for (const entry of await this.#opts.store.all()) {
      if (entry.nextAt > now) continue;
      try {
        await this.#opts.ingest(dispatchOf(entry), entry.data, entry.botUserId);
        await this.#opts.store.delete(entry.id);
        this.#opts.log.info("discord_ingest_retried", { dispatch: dispatchOf(entry), attempts: entry.attempts + 1 });
      } catch (err) {
        await this.#keep({ ...entry, attempts: entry.attempts + 1 }, err);
      }
    }
    await this.#wake();
  }

  async #keep(entry: PendingIngest, err: unknown): Promise<void> {
    const { store, log } = this.#opts;
    if (entry.attempts >= MAX_INGEST_ATTEMPTS) {
      await store.delete(entry.id);
      // Every try failed for about 45 minutes: this dispatch (a message, a ✅ or ❌) is lost. Say so, loudly.
      log.error("discord_ingest_lost", {
        dispatch: dispatchOf(entry),
        attempts: entry.attempts,
        error: errorMessage(err),
      });
      return;
    }
    const delayMs = FIRST_DELAY_MS * DELAY_FACTOR ** (entry.attempts - 1);
    await store.put({ ...entry, nextAt: this.#now() + delayMs });
    log.warn("discord_ingest_retrying", {
      dispatch: dispatchOf(entry),
      attempts: entry.attempts,
      delay_ms: delayMs,
      error: errorMessage(err),
    });
    await this.#wake();
  }

  async #wake(): Promise<void> {
    const pending = await this.#opts.store.all();
    if (pending.length > 0) await this.#opts.store.wakeAt(Math.min(...pending.map((e) => e.nextAt)));
  }

  #now(): number {
    return (this.#opts.now ?? Date.now)();
  }
}
