/**
 * @module
 * Refuses a request body over `maxBytes` with 413 and a JSON error, before any route reads it (Hono's bodyLimit,
 * which counts what is streamed when no Content-Length says the size).
 */
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../app-env.ts";

export function limitBody(maxBytes: number): MiddlewareHandler<AppEnv> {
  return bodyLimit({ maxSize: maxBytes, onError: (c) => c.json({ error: "request body too large" }, 413) });
}
