/**
 * @module
 * Callbacks and failure callbacks: new messages to the callback URL whose JSON body reports the outcome of the
 * source message in QStash's callback shape (response status, headers and base64 body, retry counts, source
 * message id, URL and base64 body; failure callbacks also carry the dlqId).
 */
import type { AttemptResult } from "./delivery.ts";
import { headerLists } from "./delivery.ts";
import { newId, type StoredMessage } from "./message.ts";

export interface CallbackReport {
  source: StoredMessage;
  result: AttemptResult;
  /** Set for the failure callback: where the source now sits in the DLQ. */
  dlqId?: string;
}

function callbackBody({ source, result, dlqId }: CallbackReport): Record<string, unknown> {
  const response =
    result.kind === "response"
      ? { status: result.status, header: result.header, body: result.body.toString("base64") }
      : { status: 0, header: {}, body: Buffer.from(result.detail).toString("base64") };
  return {
    ...response,
    retried: source.retried,
    maxRetries: source.maxRetries,
    sourceMessageId: source.messageId,
    url: source.url,
    method: source.method,
    sourceHeader: headerLists(source.headers),
    sourceBody: source.bodyBase64,
    createdAt: source.createdAt,
    ...(source.notBefore === undefined ? {} : { notBefore: source.notBefore }),
    ...(source.queueName === undefined ? {} : { queueName: source.queueName }),
    ...(source.flowControl === undefined ? {} : { flowControlKey: source.flowControl.key }),
    ...(dlqId === undefined ? {} : { dlqId }),
  };
}

/** The callback as a message of its own: signed, retried with the source's retry settings, no callbacks itself. */
export function callbackMessage(
  url: string,
  forwardHeaders: Record<string, string>,
  report: CallbackReport,
  now: number,
): StoredMessage {
  const { source } = report;
  return {
    messageId: newId("msg"),
    kind: "callback",
    url,
    method: "POST",
    headers: { ...forwardHeaders, "content-type": "application/json" },
    bodyBase64: Buffer.from(JSON.stringify(callbackBody(report))).toString("base64"),
    createdAt: now,
    maxRetries: source.maxRetries,
    retried: 0,
    retryDelay: source.retryDelay,
    timeoutMs: source.timeoutMs,
    callbackHeaders: {},
    failureCallbackHeaders: {},
    sourceMessageId: source.messageId,
  };
}
