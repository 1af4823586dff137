/**
 * @module
 * The DLQ entry of a message that ran out of retries or was refused as non-retryable, in the shape the client's
 * `dlq.listMessages()` returns (a Message plus dlqId and the last response).
 */
import { isUtf8 } from "node:buffer";
import type { AttemptResult } from "./delivery.ts";
import { headerLists } from "./delivery.ts";
import type { StoredMessage } from "./message.ts";
import type { DlqRecord } from "./store.ts";

export function dlqRecord(message: StoredMessage, dlqId: string, result: AttemptResult): DlqRecord {
  const body = Buffer.from(message.bodyBase64, "base64");
  return {
    dlqId,
    messageId: message.messageId,
    url: message.url,
    method: message.method,
    header: headerLists(message.headers),
    ...textOrBase64("body", body),
    maxRetries: message.maxRetries,
    ...(message.retryDelay === undefined ? {} : { retryDelayExpression: message.retryDelay }),
    ...(message.notBefore === undefined ? {} : { notBefore: message.notBefore }),
    createdAt: message.createdAt,
    ...(message.callback === undefined ? {} : { callback: message.callback }),
    ...(message.failureCallback === undefined ? {} : { failureCallback: message.failureCallback }),
    ...(message.queueName === undefined ? {} : { queueName: message.queueName }),
    flowControlKey: message.flowControl?.key ?? "",
    ...(message.flowControl?.parallelism === undefined ? {} : { parallelism: message.flowControl.parallelism }),
    ...(result.kind === "response"
      ? { responseStatus: result.status, responseHeader: result.header, ...textOrBase64("responseBody", result.body) }
      : {}),
  };
}

/** QStash returns a body as text when it is valid UTF-8, base64 under `<name>Base64` otherwise. */
function textOrBase64(name: string, bytes: Buffer): Record<string, string> {
  return isUtf8(bytes) ? { [name]: bytes.toString("utf8") } : { [`${name}Base64`]: bytes.toString("base64") };
}
