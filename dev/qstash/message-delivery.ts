/**
 * @module
 * One claimed message, start to end: the delivery faults that fire for it, the attempt, and its settlement — done
 * (and the callback), a retry after the backoff or the Retry-After, or the DLQ (and the failure callback). All
 * times are the stand-in's clock (./clock.ts). One JSON log line and one delivery record per attempt.
 */
import { errorMessage, logger } from "../../lib/log.ts";
import { callbackMessage, type CallbackReport } from "./callbacks.ts";
import type { QStashClock } from "./clock.ts";
import { dlqRecord } from "./dead-letter.ts";
import type { DeliveryLog, DeliveryRecord } from "./delivery-log.ts";
import { attemptDelivery, isSuccess, type AttemptResult } from "./delivery.ts";
import { attemptWithFaults, deliverySubject, type QStashFaults } from "./faults.ts";
import { newId, type StoredMessage } from "./message.ts";
import { parseRetryDelay } from "./retry-delay.ts";
import type { ScheduleBook } from "./schedules.ts";
import type { QStashStore, Settlement } from "./store.ts";

const DAY_MS = 86_400_000;

export interface MessageDeliveryOptions {
  store: QStashStore;
  schedules: ScheduleBook;
  clock: QStashClock;
  faults: QStashFaults;
  log: DeliveryLog;
  signingKey: string;
  /** Backoff before retry number `retried + 1` when the message sets no Upstash-Retry-Delay. */
  retryDelayMs: (retried: number) => number;
  /** Called after a callback message was stored, so that it goes out without waiting for the next poll. */
  onPublished(): void;
}

export class MessageDelivery {
  readonly #o: MessageDeliveryOptions;

  constructor(options: MessageDeliveryOptions) {
    this.#o = options;
  }

  async deliver(messageId: string, stop: AbortSignal): Promise<void> {
    const { store, clock, faults } = this.#o;
    try {
      const stored = await store.load(messageId);
      // A schedule's slot fires at its first attempt; the slot of a paused or deleted schedule is dropped.
      const message = stored && (await this.#o.schedules.fire(stored));
      if (!message) {
        await store.settle(messageId, { action: "done" });
        return;
      }
      const at = clock.now();
      const late = faults.take(["late"], deliverySubject(message));
      if (late) {
        const nextAt = at + late.rule.delayMs;
        await this.#finish(message, at, null, { action: "retry", message, dueAt: nextAt }, { outcome: "late", nextAt });
        return;
      }
      const started = Date.now();
      const result = await attemptWithFaults(faults, message, () => attemptDelivery(message, this.#o.signingKey, stop));
      await this.#settle(message, result, at, Date.now() - started);
    } catch (err) {
      // The lease runs out and another claim retries the message.
      logger.error("qstash_delivery_error", { messageId, error: errorMessage(err) });
    }
  }

  async #settle(message: StoredMessage, result: AttemptResult, at: number, durationMs: number): Promise<void> {
    const status = result.kind === "response" ? result.status : null;
    const error = result.kind === "error" ? result.detail : undefined;
    const fields = { messageId: message.messageId, url: message.url, retried: message.retried, status, durationMs };
    if (result.kind === "error" && result.reason === "stopped") {
      await this.#finish(message, at, status, { action: "release" }, { outcome: "released", error });
      return;
    }
    if (isSuccess(result)) {
      if (!(await this.#finish(message, at, status, { action: "done" }, { outcome: "done" }))) return;
      logger.info("qstash_delivered", fields);
      if (message.kind === "message" && message.callback) {
        await this.#publishCallback(message.callback, message.callbackHeaders, { source: message, result });
      }
      return;
    }
    const nonRetryable = result.kind === "response" && result.nonRetryable;
    if (nonRetryable || message.retried >= message.maxRetries) {
      const dlqId = newId("dlq");
      const settlement: Settlement = { action: "dlq", dlqId, record: dlqRecord(message, dlqId, result) };
      if (!(await this.#finish(message, at, status, settlement, { outcome: "dlq", dlqId, error }))) return;
      logger.warn("qstash_failed", {
        ...fields,
        reason: nonRetryable ? "non_retryable" : failureReason(result),
        dlqId,
      });
      if (message.kind === "message" && message.failureCallback) {
        await this.#publishCallback(message.failureCallback, message.failureCallbackHeaders, {
          source: message,
          result,
          dlqId,
        });
      }
      return;
    }
    const delayMs = this.#retryDelay(message, result);
    const nextAt = this.#o.clock.now() + delayMs;
    const retry = { ...message, retried: message.retried + 1 };
    if (
      await this.#finish(
        message,
        at,
        status,
        { action: "retry", message: retry, dueAt: nextAt },
        { outcome: "retry", nextAt, error },
      )
    ) {
      logger.info("qstash_retry", { ...fields, reason: failureReason(result), delayMs });
    }
  }

  /** Settles the claim and records the attempt; false when the lease was lost and the outcome dropped. */
  async #finish(
    message: StoredMessage,
    at: number,
    status: number | null,
    settlement: Settlement,
    outcome: Pick<DeliveryRecord, "outcome" | "nextAt" | "dlqId" | "error">,
  ): Promise<boolean> {
    const settled = await this.#o.store.settle(message.messageId, settlement);
    this.#o.log.add({
      messageId: message.messageId,
      kind: message.kind,
      url: message.url,
      path: new URL(message.url).pathname,
      retried: message.retried,
      at,
      status,
      ...(settled ? outcome : { outcome: "lease_lost" }),
    });
    return settled;
  }

  /** Whole milliseconds, so that virtual times stay exact integers. */
  #retryDelay(message: StoredMessage, result: AttemptResult): number {
    if (result.kind === "response" && result.retryAfterMs !== undefined) return Math.round(result.retryAfterMs);
    const delay = message.retryDelay
      ? parseRetryDelay(message.retryDelay)(message.retried)
      : this.#o.retryDelayMs(message.retried);
    return Number.isFinite(delay) ? Math.round(Math.min(DAY_MS, Math.max(0, delay))) : DAY_MS;
  }

  async #publishCallback(url: string, headers: Record<string, string>, report: CallbackReport): Promise<void> {
    const now = this.#o.clock.now();
    await this.#o.store.publish({ message: callbackMessage(url, headers, report, now), dueAt: now });
    this.#o.onPublished();
  }
}

function failureReason(result: AttemptResult): string {
  return result.kind === "response" ? `status_${result.status}` : result.reason;
}
