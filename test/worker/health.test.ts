import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { callWorker, suiteEnv } from "../support/worker.ts";

describe("GET /health", () => {
  it("reports the version, the configured platforms and a live Redis ping", async () => {
    // Through the Worker's real entry point, with the bindings of wrangler.toml and the test stack.
    const worker = (exports as unknown as { default: Fetcher }).default;
    const res = await worker.fetch("https://bot.test/health");
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.redis).toBe("ok");
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(body.platforms).toEqual({
      slack: true,
      discord: false,
      twilio: false,
      telegram: false,
      "google-chat": false,
      teams: false,
    });
  });

  it("says in one word that the store cannot be reached, never the error's text", async () => {
    const env = suiteEnv("health", { UPSTASH_REDIS_REST_URL: "http://127.0.0.1:9" });
    const res = await callWorker(env, new Request("https://bot.test/health"));
    expect(res.status).toBe(503);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: "degraded", redis: "unreachable" });
    expect(JSON.stringify(body)).not.toContain("127.0.0.1");
  });

  it("names a missing setting instead of failing with a stack trace", async () => {
    const env = suiteEnv("health", { QSTASH_TOKEN: "" });
    const res = await callWorker(env, new Request("https://bot.test/health"));
    expect(res.status).toBe(500);
    const body = (await res.json()) as { error: string; settings: string[] };
    expect(body.settings).toEqual(["QSTASH_TOKEN"]);
    expect(JSON.stringify(body)).not.toContain("at ");
  });
});
