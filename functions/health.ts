/**
 * @module
 * GET /health: the version, which platforms are configured, and a live Redis ping.
 */
import type { Context } from "hono";
import pkg from "../package.json" with { type: "json" };
import { errorMessage } from "../lib/log.ts";
import { runtimeFor } from "../lib/runtime.ts";
import type { AppEnv } from "./http.ts";

export async function health(c: Context<AppEnv>): Promise<Response> {
  const rt = runtimeFor(c.env);
  let redis: string;
  try {
    redis = (await rt.redis.ping()) === "PONG" ? "ok" : "unexpected answer to PING";
  } catch (err) {
    redis = errorMessage(err);
  }
  return c.json({ status: redis === "ok" ? "ok" : "degraded", version: pkg.version, platforms: rt.platforms, redis }, redis === "ok" ? 200 : 503);
}
