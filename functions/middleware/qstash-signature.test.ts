import { Hono } from "hono";
import { describe, expect, it, inject } from "vitest";
import { qstashSignature as sign } from "../../dev/signers/qstash.ts";
import { MINIMAL_SETTINGS } from "../../test/support/settings.ts";
import type { AppEnv } from "../app-env.ts";
import { NON_RETRYABLE, nonRetryable, qstashSignature } from "./qstash-signature.ts";

const env = {
  ...MINIMAL_SETTINGS,
  UPSTASH_REDIS_REST_URL: inject("redisRestUrl"),
  UPSTASH_REDIS_REST_TOKEN: inject("redisRestToken"),
};
const app = new Hono<AppEnv>();
app.post("/jobs/:kind", qstashSignature(), (c) =>
  c.var.rawBody === "bad" ? nonRetryable(c, "not a job") : c.json({ body: c.var.rawBody }),
);

const post = (path: string, body: string, signature?: string) =>
  app.request(path, { method: "POST", body, headers: signature ? { "Upstash-Signature": signature } : {} }, env);

describe("the QStash signature check", () => {
  it("lets a delivery signed with the current or the next key through, with the body it verified", async () => {
    for (const key of [env.QSTASH_CURRENT_SIGNING_KEY, env.QSTASH_NEXT_SIGNING_KEY]) {
      const res = await post(
        "/jobs/reply",
        "{}",
        await sign(key, `${env.PUBLIC_BASE_URL.replace(/\/$/, "")}/jobs/reply`, "{}"),
      );
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ body: "{}" });
    }
  });

  it("refuses with 401 a missing signature, another key's, another route's, or a changed body", async () => {
    const url = `${env.PUBLIC_BASE_URL.replace(/\/$/, "")}/jobs/reply`;
    expect((await post("/jobs/reply", "{}")).status).toBe(401);
    expect((await post("/jobs/reply", "{}", await sign("sig_someone_else", url, "{}"))).status).toBe(401);
    expect((await post("/jobs/memory", "{}", await sign(env.QSTASH_CURRENT_SIGNING_KEY, url, "{}"))).status).toBe(401);
    expect((await post("/jobs/reply", '{"x":1}', await sign(env.QSTASH_CURRENT_SIGNING_KEY, url, "{}"))).status).toBe(
      401,
    );
  });

  it("answers a delivery that can never succeed so that QStash never retries it", async () => {
    const url = `${env.PUBLIC_BASE_URL.replace(/\/$/, "")}/jobs/reply`;
    const res = await post("/jobs/reply", "bad", await sign(env.QSTASH_CURRENT_SIGNING_KEY, url, "bad"));
    expect(res.status).toBe(NON_RETRYABLE);
    expect(res.headers.get("Upstash-NonRetryable-Error")).toBe("true");
  });
});
