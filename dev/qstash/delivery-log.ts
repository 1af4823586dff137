/**
 * @module
 * What became of each delivery attempt, in the stand-in's clock time: `GET /__deliveries` lists them and an
 * advance of the virtual clock answers with the ones it caused, so a test can check the exact retry schedule.
 */

export interface DeliveryRecord {
  messageId: string;
  kind: "message" | "callback";
  url: string;
  /** The destination's path, as fault rules match it. */
  path: string;
  /** The `Upstash-Retried` the attempt carried. */
  retried: number;
  /** The stand-in's clock when the attempt went out. */
  at: number;
  /** The destination's answer; null when there was none (timeout, network error, answer lost, attempt put off). */
  status: number | null;
  /** done; retry (due again at nextAt); dlq; late (a fault put it off to nextAt); released (the stand-in stopped);
   *  lease_lost (another claim took it over). A duplicate's extra copy is in the fault record, not here. */
  outcome: "done" | "retry" | "dlq" | "late" | "released" | "lease_lost";
  nextAt?: number;
  dlqId?: string;
  error?: string;
}

const KEPT = 10_000;

export class DeliveryLog {
  #records: DeliveryRecord[] = [];
  #dropped = 0;

  add(record: DeliveryRecord): void {
    this.#records.push(record);
    if (this.#records.length > KEPT) {
      this.#records.shift();
      this.#dropped += 1;
    }
  }

  /** A position to read from later with `since`. */
  mark(): number {
    return this.#dropped + this.#records.length;
  }

  since(mark: number): DeliveryRecord[] {
    return this.#records.slice(Math.max(0, mark - this.#dropped));
  }

  /** Records whose fields equal every given one (compared as strings, as query parameters come). */
  list(filter: Iterable<[string, string]> = []): DeliveryRecord[] {
    const wanted = [...filter];
    return this.#records.filter((r) =>
      wanted.every(([key, value]) => String(r[key as keyof DeliveryRecord]) === value),
    );
  }
}
