/**
 * @module
 * Forwards one buffered request to the proxy's target and buffers the whole answer, so that the proxy can still
 * decide to drop it after the target has acted on the request.
 */
import { request, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders } from "node:http";

export interface UpstreamAnswer {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

/** Hop-by-hop headers belong to one connection and are never passed on. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "proxy-connection",
  "te",
  "trailer",
]);

/** Upstash refuses request bodies over 10 MB; the proxy holds no more than that either. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

export class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
}

export async function readWholeBody(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError(`body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** Sends `method pathAndQuery` with `body` to `target` (its own path prefix kept) and waits for the whole answer. */
export function forward(
  target: URL,
  method: string,
  pathAndQuery: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
): Promise<UpstreamAnswer> {
  const basePath = target.pathname.replace(/\/$/, "");
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port,
        method,
        path: `${basePath}${pathAndQuery}`,
        headers: { ...passOn(headers), host: target.host, "content-length": String(body.length) },
      },
      (answer) => {
        readWholeBody(answer).then(
          (answerBody) =>
            resolve({
              status: answer.statusCode ?? 502,
              headers: { ...passOn(answer.headers), "content-length": String(answerBody.length) },
              body: answerBody,
            }),
          reject,
        );
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

function passOn(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const kept: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && name !== "host" && name !== "content-length")
      kept[name] = value;
  }
  return kept;
}
