/**
 * @module
 * One delivery attempt: the signed HTTP request to the destination and what came back, read the way QStash reads it
 * (2xx done; 489 + Upstash-NonRetryable-Error stops; Retry-After overrides the backoff; a timeout is a failure).
 */
import type { StoredMessage } from "./message.ts";
import { qstashSignature } from "../signers/qstash.ts";

const NON_RETRYABLE_STATUS = 489;
const NON_RETRYABLE_HEADER = "upstash-nonretryable-error";
const METHODS_WITHOUT_BODY = new Set(["GET", "HEAD"]);

export type AttemptResult =
  | {
      kind: "response";
      status: number;
      header: Record<string, string[]>;
      body: Buffer;
      /** The delay the destination asked for with Retry-After, if it did. */
      retryAfterMs?: number;
      nonRetryable: boolean;
    }
  | { kind: "error"; reason: "timeout" | "network" | "stopped"; detail: string };

export function isSuccess(result: AttemptResult): boolean {
  return result.kind === "response" && result.status >= 200 && result.status < 300;
}

export async function attemptDelivery(
  message: StoredMessage,
  signingKey: string,
  stop: AbortSignal,
): Promise<AttemptResult> {
  const body = Buffer.from(message.bodyBase64, "base64");
  const sendsBody = !METHODS_WITHOUT_BODY.has(message.method);
  const headers = new Headers(message.headers);
  headers.set("Upstash-Signature", await qstashSignature(signingKey, message.url, sendsBody ? body : ""));
  headers.set("Upstash-Message-Id", message.messageId);
  headers.set("Upstash-Retried", String(message.retried));
  if (message.scheduleId) headers.set("Upstash-Schedule-Id", message.scheduleId);
  const timeout = AbortSignal.timeout(message.timeoutMs);
  try {
    const response = await fetch(message.url, {
      method: message.method,
      headers,
      body: sendsBody ? body : undefined,
      signal: AbortSignal.any([timeout, stop]),
      redirect: "manual",
    });
    const responseBody = Buffer.from(await response.arrayBuffer());
    return {
      kind: "response",
      status: response.status,
      header: headerLists(response.headers),
      body: responseBody,
      retryAfterMs: retryAfterMs(response.headers.get("retry-after")),
      nonRetryable: response.status === NON_RETRYABLE_STATUS && response.headers.get(NON_RETRYABLE_HEADER) === "true",
    };
  } catch (err) {
    if (stop.aborted) return { kind: "error", reason: "stopped", detail: "stand-in stopped" };
    if (timeout.aborted)
      return { kind: "error", reason: "timeout", detail: `no answer within ${message.timeoutMs} ms` };
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : undefined;
    return { kind: "error", reason: "network", detail: cause ?? (err instanceof Error ? err.message : String(err)) };
  }
}

/** Header maps in QStash's API shape: name → list of values. */
export function headerLists(headers: Headers | Record<string, string>): Record<string, string[]> {
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  const lists: Record<string, string[]> = {};
  for (const [name, value] of entries) lists[name] = [...(lists[name] ?? []), value];
  return lists;
}

/** Retry-After in seconds or as an HTTP date. */
function retryAfterMs(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
