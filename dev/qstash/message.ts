/**
 * @module
 * The message as the stand-in keeps it in Redis between publish and its last delivery attempt, and the ids it hands
 * out.
 */
import { randomBytes } from "node:crypto";
import { z } from "zod";

const headerMap = z.record(z.string(), z.string());

export const storedMessageSchema = z.object({
  messageId: z.string(),
  /** "message" for a publish; callbacks are messages too, but never get callbacks of their own. */
  kind: z.enum(["message", "callback"]),
  url: z.string(),
  method: z.string(),
  /** What the destination receives besides the QStash headers: forwarded headers and the Content-Type. */
  headers: headerMap,
  bodyBase64: z.string(),
  createdAt: z.number(),
  notBefore: z.number().optional(),
  maxRetries: z.number().int().min(0),
  retried: z.number().int().min(0),
  retryDelay: z.string().optional(),
  timeoutMs: z.number().positive(),
  callback: z.string().optional(),
  failureCallback: z.string().optional(),
  callbackHeaders: headerMap,
  failureCallbackHeaders: headerMap,
  flowControl: z.object({ key: z.string(), parallelism: z.number().int().positive().optional() }).optional(),
  queueName: z.string().optional(),
  /** Set on callbacks: the message whose outcome they report. */
  sourceMessageId: z.string().optional(),
  /** Set on a schedule's messages (./schedules.ts); sent as Upstash-Schedule-Id. */
  scheduleId: z.string().optional(),
  /** The slot a schedule's message stands for, until it fires (then the schedule's next slot is planned). */
  slotAt: z.number().optional(),
});

export type StoredMessage = z.infer<typeof storedMessageSchema>;

/** A concurrency limit a delivery must fit under: [gate name, max deliveries in flight]. */
export type Gate = [string, number];

/** A queue delivers one message at a time unless configured otherwise (queue configuration is not served here). */
const QUEUE_PARALLELISM = 1;

export function gatesOf(message: StoredMessage): Gate[] {
  const gates: Gate[] = [];
  if (message.flowControl?.parallelism)
    gates.push([`flow:${message.flowControl.key}`, message.flowControl.parallelism]);
  if (message.queueName) gates.push([`queue:${message.queueName}`, QUEUE_PARALLELISM]);
  return gates;
}

let sequence = 0;

/**
 * Ids sort by creation time, then by a per-process counter: Redis orders equal due times by member, so messages
 * published in the same millisecond still go out in publish order.
 */
export function newId(prefix: "msg" | "dlq" | "scd"): string {
  sequence = (sequence + 1) % 36 ** 4;
  const time = Date.now().toString(36).padStart(9, "0");
  return `${prefix}_${time}${sequence.toString(36).padStart(4, "0")}${randomBytes(6).toString("base64url")}`;
}
