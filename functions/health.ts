/**
 * @module
 * GET /health: the version, which platforms are configured, and a live Redis ping. Each dependency is one short
 * word (`ok`, `unreachable`, `unexpected`), never an error's text: the route needs no token, and an error's text
 * can carry a command or an address. The reason is in the `health_check_failed` log line.
 */
import type { Context } from "hono";
import pkg from "../package.json" with { type: "json" };
import { errorMessage } from "../lib/log.ts";
import { runtimeFor } from "../lib/runtime.ts";
import type { AppEnv } from "./app-env.ts";

type DependencyStatus = "ok" | "unreachable" | "unexpected";

export async function health(c: Context<AppEnv>): Promise<Response> {
  const rt = runtimeFor(c.env);
  let redis: DependencyStatus;
  try {
    redis = (await rt.store.ping()) ? "ok" : "unexpected";
  } catch (err) {
    rt.log.warn("health_check_failed", { dependency: "redis", error: errorMessage(err) });
    redis = "unreachable";
  }
  return c.json(
    { status: redis === "ok" ? "ok" : "degraded", version: pkg.version, platforms: rt.platforms.summary(), redis },
    redis === "ok" ? 200 : 503,
  );
}
