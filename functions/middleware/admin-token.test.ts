import { Hono } from "hono";
import { describe, expect, it, inject } from "vitest";
import { MINIMAL_SETTINGS } from "../../test/support/settings.ts";
import type { AppEnv } from "../app-env.ts";
import { adminToken } from "./admin-token.ts";

const TOKEN = "admin-token-for-middleware-tests-0123456789";
const base = {
  ...MINIMAL_SETTINGS,
  UPSTASH_REDIS_REST_URL: inject("redisRestUrl"),
  UPSTASH_REDIS_REST_TOKEN: inject("redisRestToken"),
  REDIS_KEY_PREFIX: `t-admin-mw-${Date.now()}`,
};
const app = new Hono<AppEnv>();
app.use("/admin/*", adminToken());
app.get("/admin/things", (c) => c.json({ ok: true }));

const get = (env: Record<string, unknown>, token?: string, address = "192.0.2.1") =>
  app.request(
    "/admin/things",
    { headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), "CF-Connecting-IP": address } },
    env,
  );

describe("the admin token", () => {
  it("lets the right bearer token through and refuses another with 401", async () => {
    const env = { ...base, ADMIN_TOKEN: TOKEN };
    expect((await get(env, TOKEN)).status).toBe(200);
    const wrong = await get(env, `${TOKEN}x`, "192.0.2.2");
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("WWW-Authenticate")).toBe("Bearer");
    expect((await get(env, undefined, "192.0.2.3")).status).toBe(401);
  });

  it("hides the routes (404) while ADMIN_TOKEN is unset, and says they are off (503) when it is malformed", async () => {
    expect((await get({ ...base })).status).toBe(404);
    const off = await get({ ...base, ADMIN_TOKEN: "short" }, "short");
    expect(off.status).toBe(503);
    expect(JSON.stringify(await off.json())).not.toContain('"short"');
  });
});
