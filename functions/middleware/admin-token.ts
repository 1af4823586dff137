/**
 * @module
 * The door of the admin routes: Bearer ADMIN_TOKEN, compared in constant time. The routes do not exist (404) until
 * ADMIN_TOKEN is set; a malformed one (too short to resist guessing) turns the admin view off (503, and a
 * `setting_ignored` line when the Worker starts) without touching anything else. Every attempt is counted before
 * the token is compared, per client and for all clients; past the allowance a client gets 429 with Retry-After,
 * right token or not (lib/limits/admin-attempts.ts).
 */
import type { MiddlewareHandler } from "hono";
import { constantTimeEqual } from "../../lib/crypto.ts";
import { adminAttempt } from "../../lib/limits/admin-attempts.ts";
import { runtimeFor } from "../../lib/runtime.ts";
import type { AppEnv } from "../app-env.ts";

const BEARER = /^Bearer\s+(\S+)$/i;
const SETTING = "ADMIN_TOKEN";

export function adminToken(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const rt = runtimeFor(c.env);
    const expected = rt.settings.ADMIN_TOKEN;
    if (!expected) {
      if (rt.settings.ignored.some((p) => p.name === SETTING))
        return c.json({ error: `the admin view is off: ${SETTING} is malformed` }, 503);
      return c.json({ error: "not found" }, 404);
    }
    const given = BEARER.exec(c.req.header("Authorization") ?? "")?.[1];
    const address = c.req.header("CF-Connecting-IP") ?? "unknown";
    const attempt = await adminAttempt(rt, address, () => given !== undefined && constantTimeEqual(given, expected));
    if (attempt.status === "locked") {
      return c.json({ error: "too many failed attempts from this address, try again later" }, 429, {
        "Retry-After": String(attempt.retryAfterSeconds),
      });
    }
    if (attempt.status === "wrong") {
      rt.log.warn("admin_rejected", { route: c.req.path.split("/")[2] });
      return c.json({ error: "unauthorized" }, 401, { "WWW-Authenticate": "Bearer" });
    }
    await next();
  };
}
