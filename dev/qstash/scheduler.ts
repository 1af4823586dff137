/**
 * @module
 * The delivery loop: claims due messages from the store, delivers each, and settles the outcome — done (and the
 * callback), a retry after the backoff, or the DLQ (and the failure callback). One JSON log line per outcome.
 */
import { errorMessage, logger } from "../../lib/log.ts";
import { callbackMessage, type CallbackReport } from "./callbacks.ts";
import { dlqRecord } from "./dead-letter.ts";
import { attemptDelivery, isSuccess, type AttemptResult } from "./delivery.ts";
import { newId, type StoredMessage } from "./message.ts";
import { parseRetryDelay } from "./retry-delay.ts";
import type { QStashStore } from "./store.ts";

/** Deliveries one stand-in runs at once. */
const MAX_CONCURRENT_DELIVERIES = 64;
const DAY_MS = 86_400_000;

export interface SchedulerOptions {
  store: QStashStore;
  signingKey: string;
  /** Backoff before retry number `retried + 1` when the message sets no Upstash-Retry-Delay. */
  retryDelayMs: (retried: number) => number;
  pollIntervalMs: number;
}

/** QStash's default backoff, `min(1 day, e^(2.5·n))` seconds, scaled by `baseMs` (1000 in production). */
export function productionBackoff(baseMs = 1000): (retried: number) => number {
  return (retried) => Math.min(DAY_MS, baseMs * Math.exp(2.5 * retried));
}

export class DeliveryScheduler {
  readonly #options: SchedulerOptions;
  readonly #stop = new AbortController();
  readonly #inFlight = new Set<Promise<void>>();
  #timer: NodeJS.Timeout | undefined;
  #ticking = false;
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
    if (this.#ticking) {
      this.#tickAgain = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#tick(), 0);
  }

  /** Stops claiming, cuts running deliveries short and hands their messages back to the store. */
  async stop(): Promise<void> {
    this.#stop.abort();
    clearTimeout(this.#timer);
    while (this.#inFlight.size > 0 || this.#ticking) {
      await Promise.all([...this.#inFlight]);
      if (this.#ticking) await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  async #tick(): Promise<void> {
    this.#ticking = true;
    try {
      do {
        this.#tickAgain = false;
        const room = MAX_CONCURRENT_DELIVERIES - this.#inFlight.size;
        const ids = room > 0 && !this.#stop.signal.aborted ? await this.#options.store.claimDue(room) : [];
        for (const id of ids) this.#track(this.#deliver(id));
      } while (this.#tickAgain && !this.#stop.signal.aborted);
    } catch (err) {
      if (!this.#stop.signal.aborted) logger.error("qstash_scheduler_error", { error: errorMessage(err) });
    } finally {
      this.#ticking = false;
    }
    if (!this.#stop.signal.aborted) this.#timer = setTimeout(() => void this.#tick(), this.#options.pollIntervalMs);
  }

  #track(delivery: Promise<void>): void {
    this.#inFlight.add(delivery);
    void delivery.finally(() => {
      this.#inFlight.delete(delivery);
      this.wake();
    });
  }

  async #deliver(messageId: string): Promise<void> {
    const { store } = this.#options;
    try {
      const message = await store.load(messageId);
      if (!message) {
        await store.settle(messageId, { action: "done" });
        return;
      }
      const started = Date.now();
      const result = await attemptDelivery(message, this.#options.signingKey, this.#stop.signal);
      await this.#settle(message, result, Date.now() - started);
    } catch (err) {
      // The lease runs out and another claim retries the message.
      logger.error("qstash_delivery_error", { messageId, error: errorMessage(err) });
    }
  }

  async #settle(message: StoredMessage, result: AttemptResult, durationMs: number): Promise<void> {
    const { store } = this.#options;
    const fields = {
      messageId: message.messageId,
      url: message.url,
      retried: message.retried,
      status: result.kind === "response" ? result.status : null,
      durationMs,
    };
    if (result.kind === "error" && result.reason === "stopped") {
      await store.settle(message.messageId, { action: "release" });
      return;
    }
    if (isSuccess(result)) {
      if (!(await store.settle(message.messageId, { action: "done" }))) return;
      logger.info("qstash_delivered", fields);
      if (message.kind === "message" && message.callback) {
        await this.#publishCallback(message.callback, message.callbackHeaders, { source: message, result });
      }
      return;
    }
    const nonRetryable = result.kind === "response" && result.nonRetryable;
    if (nonRetryable || message.retried >= message.maxRetries) {
      const dlqId = newId("dlq");
      const settled = await store.settle(message.messageId, {
        action: "dlq",
        dlqId,
        record: dlqRecord(message, dlqId, result),
      });
      if (!settled) return;
      logger.warn("qstash_failed", { ...fields, reason: nonRetryable ? "non_retryable" : failureReason(result), dlqId });
      if (message.kind === "message" && message.failureCallback) {
        await this.#publishCallback(message.failureCallback, message.failureCallbackHeaders, { source: message, result, dlqId });
      }
      return;
    }
    const delayMs = this.#retryDelay(message, result);
    const retry = { ...message, retried: message.retried + 1 };
    if (await store.settle(message.messageId, { action: "retry", message: retry, dueAt: Date.now() + delayMs })) {
      logger.info("qstash_retry", { ...fields, reason: failureReason(result), delayMs: Math.round(delayMs) });
    }
  }

  #retryDelay(message: StoredMessage, result: AttemptResult): number {
    if (result.kind === "response" && result.retryAfterMs !== undefined) return result.retryAfterMs;
    const delay = message.retryDelay
      ? parseRetryDelay(message.retryDelay)(message.retried)
      : this.#options.retryDelayMs(message.retried);
    return Number.isFinite(delay) ? Math.min(DAY_MS, Math.max(0, delay)) : DAY_MS;
  }

  async #publishCallback(url: string, headers: Record<string, string>, report: CallbackReport): Promise<void> {
    const message = callbackMessage(url, headers, report);
    await this.#options.store.publish({ message, dueAt: Date.now() });
    this.wake();
  }
}

function failureReason(result: AttemptResult): string {
  return result.kind === "response" ? `status_${result.status}` : result.reason;
}
