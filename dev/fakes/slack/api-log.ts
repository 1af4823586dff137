/**
 * @module
 * Every Web API call the Slack fake answered, refused ones included, with its time and outcome (`GET /__api`),
 * so that tests and benches can count calls per answer and see when each one happened.
 */

export interface SlackApiCall {
  seq: number;
  /** Epoch ms when the answer was decided. */
  at: number;
  method: string;
  team?: string;
  channel?: string;
  ts?: string;
  thread_ts?: string;
  /** A read's page size, and whether it asked for metadata (how Parley looks for its own posts), as sent. */
  limit?: string;
  include_all_metadata?: string;
  /** HTTP status of the answer (200 also for `ok:false`), or `fault` when a scripted fault answered. */
  status: number | "fault";
  ok?: boolean;
  error?: string;
}

export class SlackApiLog {
  #calls: SlackApiCall[] = [];

  add(call: Omit<SlackApiCall, "seq" | "at">, at = Date.now()): void {
    this.#calls.push({ seq: this.#calls.length + 1, at, ...call });
  }

  all(): SlackApiCall[] {
    return [...this.#calls];
  }

  /** Calls per method. */
  counts(): { total: number; byMethod: Record<string, number> } {
    const byMethod: Record<string, number> = {};
    for (const call of this.#calls) byMethod[call.method] = (byMethod[call.method] ?? 0) + 1;
    return { total: this.#calls.length, byMethod };
  }

  reset(): void {
    this.#calls = [];
  }
}
