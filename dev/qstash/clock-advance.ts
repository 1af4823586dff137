/**
 * @module
 * Advancing a lane's virtual clock: time moves from one due time to the next, and at each the deliveries that came
 * due go out and are answered and settled (with the callbacks and the retries due by then that they cause) before
 * time moves on. So "advance 148 s" delivers, in order, exactly what production would deliver in those 148 s, and
 * answers once it has all been settled. Advances of one lane run one at a time.
 */
import type { VirtualClock } from "./clock.ts";
import type { DeliveryLog, DeliveryRecord } from "./delivery-log.ts";
import type { DeliveryScheduler } from "./scheduler.ts";
import type { QStashStore } from "./store.ts";

export interface AdvanceResult {
  /** The clock after the advance. */
  now: number;
  /** When the next waiting message is due, or null when none waits. */
  nextDueAt: number | null;
  /** The attempts the advance made, in the order they were settled. */
  deliveries: DeliveryRecord[];
}

export class StuckMessageError extends Error {
  override name = "StuckMessageError";
}

export class ClockAdvance {
  readonly #clock: VirtualClock;
  readonly #scheduler: DeliveryScheduler;
  readonly #store: QStashStore;
  readonly #log: DeliveryLog;
  #last: Promise<unknown> = Promise.resolve();

  constructor(clock: VirtualClock, scheduler: DeliveryScheduler, store: QStashStore, log: DeliveryLog) {
    this.#clock = clock;
    this.#scheduler = scheduler;
    this.#store = store;
    this.#log = log;
  }

  /** Moves the clock to `to` (never back: an earlier time just settles what is due now). */
  advanceTo(to: number): Promise<AdvanceResult> {
    const run = this.#last.then(() => this.#advance(to));
    this.#last = run.catch(() => undefined);
    return run;
  }

  async #advance(to: number): Promise<AdvanceResult> {
    const mark = this.#log.mark();
    await this.#scheduler.whenIdle();
    for (;;) {
      const next = await this.#store.nextDueAt();
      if (next === undefined || next > to) break;
      if (next <= this.#clock.now()) {
        throw new StuckMessageError(
          `a message due at ${next} is not delivered although nothing is in flight: a flow-control gate left by a ` +
            "stopped stand-in holds it until its lease runs out; use a fresh key prefix or lane",
        );
      }
      this.#clock.moveTo(next);
      await this.#scheduler.whenIdle();
    }
    this.#clock.moveTo(to);
    await this.#scheduler.whenIdle();
    return {
      now: this.#clock.now(),
      nextDueAt: (await this.#store.nextDueAt()) ?? null,
      deliveries: this.#log.since(mark),
    };
  }
}
