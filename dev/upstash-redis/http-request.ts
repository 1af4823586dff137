/**
 * @module
 * Reading an incoming REST request: the bearer token check and the JSON body, bounded like Upstash's 10 MB limit.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** Upstash refuses request bodies over 10 MB. */
export const MAX_REQUEST_BYTES = 10 * 1024 * 1024;
const BEARER_PREFIX = "Bearer ";

/** True when the request carries `Authorization: Bearer <token>`; compared in constant time. */
export function hasBearerToken(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization ?? "";
  if (!header.startsWith(BEARER_PREFIX)) return false;
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(header.slice(BEARER_PREFIX.length)), digest(token));
}

export type BodyReading = { kind: "json"; value: unknown } | { kind: "too_large" } | { kind: "not_json" };

/** Reads and parses the body, stopping as soon as it exceeds `MAX_REQUEST_BYTES`. */
export async function readJsonBody(req: IncomingMessage): Promise<BodyReading> {
  if (Number(req.headers["content-length"] ?? 0) > MAX_REQUEST_BYTES) return { kind: "too_large" };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_REQUEST_BYTES) return { kind: "too_large" };
    chunks.push(chunk);
  }
  try {
    return { kind: "json", value: JSON.parse(Buffer.concat(chunks, size).toString("utf8")) };
  } catch {
    return { kind: "not_json" };
  }
}
