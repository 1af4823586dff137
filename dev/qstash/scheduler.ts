/**
 * @module
 * The delivery loop: claims due messages from the store (due by the stand-in's clock) and hands each to
 * ./message-delivery.ts, at most MAX_CONCURRENT_DELIVERIES at once; `whenIdle` tells when nothing is due or in
 * flight any more, which is what an advance of the virtual clock waits for.
 */
import { errorMessage, logger } from "../../lib/log.ts";
import type { MessageDelivery } from "./message-delivery.ts";
import type { QStashStore } from "./store.ts";

/** Deliveries one stand-in runs at once. */
const MAX_CONCURRENT_DELIVERIES = 64;
const DAY_MS = 86_400_000;

export interface SchedulerOptions {
  store: QStashStore;
  delivery: MessageDelivery;
  /** Wall-clock time between looks for due messages when nothing wakes the loop. */
  pollIntervalMs: number;
}

/**
 * QStash's default backoff: retry number n (1 for the first retry) waits `min(1 day, e^(2.5·n))` seconds — about
 * 12 s, 148 s, 1808 s — scaled by `baseMs` (1000 in production). Called with the retries made so far (0 before
 * the first retry).
 */
export function productionBackoff(baseMs = 1000): (retried: number) => number {
  return (retried) => Math.min(DAY_MS, baseMs * Math.exp(2.5 * (retried + 1)));
}

export class DeliveryScheduler {
  readonly #options: SchedulerOptions;
  readonly #stop = new AbortController();
  readonly #inFlight = new Set<Promise<void>>();
  #timer: NodeJS.Timeout | undefined;
  #tick: Promise<void> | undefined;
  #tickAgain = false;

  constructor(options: SchedulerOptions) {
    this.#options = options;
  }

  start(): void {
    this.wake();
  }

  /** Looks for due messages now instead of at the next poll (after a publish, or when a delivery ends). */
  wake(): void {
    if (this.#stop.signal.aborted) return;
    if (this.#tick) {
      this.#tickAgain = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#runTick(), 0);
  }

  /**
   * Resolves once no delivery is in flight and nothing is due by the clock's present time: every delivery that
   * came due has been answered and settled, and so have the callbacks and retries due by now that they caused.
   */
  async whenIdle(): Promise<void> {
    for (;;) {
      if (this.#tick) await this.#tick;
      else if (this.#inFlight.size > 0) await Promise.all([...this.#inFlight]);
      else {
        await this.#runTick();
        if (this.#inFlight.size === 0 || this.#stop.signal.aborted) return;
      }
    }
  }

  /** Stops claiming, cuts running deliveries short and hands their messages back to the store. */
  async stop(): Promise<void> {
    this.#stop.abort();
    clearTimeout(this.#timer);
    while (this.#inFlight.size > 0 || this.#tick) {
      await Promise.all([...this.#inFlight, this.#tick]);
    }
  }

  #runTick(): Promise<void> {
    this.#tick ??= this.#claimAndDeliver().finally(() => {
      this.#tick = undefined;
      if (!this.#stop.signal.aborted) {
        clearTimeout(this.#timer);
        this.#timer = setTimeout(() => void this.#runTick(), this.#options.pollIntervalMs);
      }
    });
    return this.#tick;
  }

  async #claimAndDeliver(): Promise<void> {
    try {
      do {
        this.#tickAgain = false;
        const room = MAX_CONCURRENT_DELIVERIES - this.#inFlight.size;
        const ids = room > 0 && !this.#stop.signal.aborted ? await this.#options.store.claimDue(room) : [];
        for (const id of ids) this.#track(this.#options.delivery.deliver(id, this.#stop.signal));
      } while (this.#tickAgain && !this.#stop.signal.aborted);
    } catch (err) {
      if (!this.#stop.signal.aborted) logger.error("qstash_scheduler_error", { error: errorMessage(err) });
    }
  }

  #track(delivery: Promise<void>): void {
    this.#inFlight.add(delivery);
    void delivery.finally(() => {
      this.#inFlight.delete(delivery);
      this.wake();
    });
  }
}
