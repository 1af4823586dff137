/**
 * @module
 * Reads a publish request (destination, Upstash-* headers, raw body) into the message to store, its due time and
 * its deduplication key, the way QStash interprets those headers.
 */
import { createHash } from "node:crypto";
import { newId, type StoredMessage } from "./message.ts";
import { parseRetryDelay, RetryDelaySyntaxError } from "./retry-delay.ts";

const DEFAULT_MAX_RETRIES = 3;
/** Long enough for any dev job; production caps it by plan. */
const DEFAULT_TIMEOUT_MS = 15 * 60_000;
const FORWARD_PREFIX = "upstash-forward-";
const CALLBACK_FORWARD_PREFIX = "upstash-callback-forward-";
const FAILURE_CALLBACK_FORWARD_PREFIX = "upstash-failure-callback-forward-";
const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]);
const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export class PublishRequestError extends Error {
  override name = "PublishRequestError";
}

export interface PublishInput {
  destination: string;
  /** Lower-case header names, as node:http gives them. */
  headers: Record<string, string>;
  body: Buffer;
  queueName?: string;
}

export interface PublishPlan {
  message: StoredMessage;
  dueAt: number;
  deduplicationKey?: string;
}

export function planPublish(input: PublishInput, now = Date.now()): PublishPlan {
  const { headers } = input;
  const url = destinationUrl(input.destination);
  const method = (headers["upstash-method"] ?? "POST").toUpperCase();
  if (!METHODS.has(method)) throw new PublishRequestError(`Upstash-Method "${method}" is not supported`);
  const retryDelay = headers["upstash-retry-delay"];
  if (retryDelay !== undefined) checkRetryDelay(retryDelay);
  const notBeforeSeconds = optionalInteger(headers["upstash-not-before"], "Upstash-Not-Before");
  const delayMs = headers["upstash-delay"] ? parseDuration(headers["upstash-delay"], "Upstash-Delay") : 0;
  const timeout = headers["upstash-timeout"];

  const message: StoredMessage = {
    messageId: newId("msg"),
    kind: "message",
    url,
    method,
    headers: deliveryHeaders(headers),
    bodyBase64: input.body.toString("base64"),
    createdAt: now,
    notBefore: notBeforeSeconds === undefined ? undefined : notBeforeSeconds * 1000,
    maxRetries: optionalInteger(headers["upstash-retries"], "Upstash-Retries") ?? DEFAULT_MAX_RETRIES,
    retried: 0,
    retryDelay,
    timeoutMs: timeout ? parseDuration(timeout, "Upstash-Timeout") : DEFAULT_TIMEOUT_MS,
    callback: optionalUrl(headers["upstash-callback"], "Upstash-Callback"),
    failureCallback: optionalUrl(headers["upstash-failure-callback"], "Upstash-Failure-Callback"),
    callbackHeaders: stripPrefix(headers, CALLBACK_FORWARD_PREFIX),
    failureCallbackHeaders: stripPrefix(headers, FAILURE_CALLBACK_FORWARD_PREFIX),
    flowControl: flowControlOf(headers),
    queueName: input.queueName,
  };
  // Not-Before wins over Delay, as in QStash.
  const dueAt = message.notBefore ?? now + delayMs;
  return { message, dueAt, deduplicationKey: deduplicationKeyOf(headers, url, input.body) };
}

/** `10s`, `2m`, `1h30m`, `500ms`, `1d`, or a bare number of seconds. */
function parseDuration(text: string, header: string): number {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const parts = [...trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join("") !== trimmed) {
    throw new PublishRequestError(`${header} "${text}" is not a duration like 10s, 2m or 1h`);
  }
  return parts.reduce((sum, [, amount, unit]) => sum + Number(amount) * (DURATION_UNITS_MS[unit as string] ?? 0), 0);
}

function destinationUrl(raw: string): string {
  const destination = /^https?%3A/i.test(raw) ? decodeURIComponent(raw) : raw;
  if (!/^https?:\/\//i.test(destination) || !URL.canParse(destination)) {
    throw new PublishRequestError(
      `destination "${raw}" is not an http(s) URL (URL groups and APIs are not served here)`,
    );
  }
  return destination;
}

function deliveryHeaders(headers: Record<string, string>): Record<string, string> {
  const forwarded = stripPrefix(headers, FORWARD_PREFIX);
  const contentType = headers["content-type"];
  return contentType === undefined ? forwarded : { "content-type": contentType, ...forwarded };
}

function stripPrefix(headers: Record<string, string>, prefix: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith(prefix) && name.length > prefix.length) result[name.slice(prefix.length)] = value;
  }
  return result;
}

function flowControlOf(headers: Record<string, string>): StoredMessage["flowControl"] {
  const key = headers["upstash-flow-control-key"];
  if (!key) return undefined;
  const value = headers["upstash-flow-control-value"] ?? "";
  const parallelism = /(?:^|[\s,])parallelism=(\d+)/.exec(value)?.[1];
  return { key, parallelism: parallelism === undefined ? undefined : Math.max(1, Number(parallelism)) };
}

function deduplicationKeyOf(headers: Record<string, string>, url: string, body: Buffer): string | undefined {
  const explicit = headers["upstash-deduplication-id"];
  if (explicit) return `id:${explicit}`;
  if (headers["upstash-content-based-deduplication"] !== "true") return undefined;
  const hash = createHash("sha256").update(url).update("\0");
  for (const name of Object.keys(headers).sort()) {
    if (name.startsWith(FORWARD_PREFIX) || name === "content-type") hash.update(`${name}:${headers[name]}\0`);
  }
  return `content:${hash.update(body).digest("base64url")}`;
}

function checkRetryDelay(expression: string): void {
  try {
    parseRetryDelay(expression);
  } catch (err) {
    if (err instanceof RetryDelaySyntaxError) throw new PublishRequestError(`Upstash-Retry-Delay: ${err.message}`);
    throw err;
  }
}

function optionalInteger(text: string | undefined, header: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text.trim())) throw new PublishRequestError(`${header} "${text}" is not a non-negative integer`);
  return Number(text.trim());
}

function optionalUrl(text: string | undefined, header: string): string | undefined {
  if (text === undefined) return undefined;
  if (!/^https?:\/\//i.test(text) || !URL.canParse(text))
    throw new PublishRequestError(`${header} "${text}" is not an http(s) URL`);
  return text;
}
