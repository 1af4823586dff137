import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { LogFields, Logger } from "../../lib/log.ts";
import type { Verified, WebhookRequest } from "../../lib/platforms/adapter.ts";
import type { AppEnv } from "../app-env.ts";
import { verifiedWebhook } from "./verified-webhook.ts";

const SECRET_HEADER = "X-Test-Signature";

function harness(answer: (request: WebhookRequest) => Verified) {
  const lines: { event: string; fields?: LogFields }[] = [];
  const seen: WebhookRequest[] = [];
  const log: Logger = {
    info: () => {},
    warn: (event, fields) => lines.push({ event, ...(fields ? { fields } : {}) }),
    error: () => {},
  };
  const app = new Hono<AppEnv>();
  app.post(
    "/hook",
    verifiedWebhook({
      platform: "example",
      check: () => ({
        verify: async (request) => {
          seen.push(request);
          return answer(request);
        },
        log,
      }),
      unsigned: (request) => (request.rawBody === "ping" ? new Response("pong") : null),
    }),
    (c) => c.json({ body: c.var.webhook.rawBody }),
  );
  const post = (body: string, signature?: string) =>
    app.request("/hook", { method: "POST", body, headers: signature ? { [SECRET_HEADER]: signature } : {} });
  return { post, lines, seen };
}

const bySignature = (request: WebhookRequest): Verified =>
  request.headers.get(SECRET_HEADER) === "good" ? { ok: true } : { ok: false, reason: "bad_signature" };

describe("the verified webhook", () => {
  it("hands a signed delivery on with the exact body it verified, read once", async () => {
    const { post, seen } = harness(bySignature);
    const body = '{"text":"héllo ✓"}';
    const res = await post(body, "good");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ body });
    expect(seen.map((r) => r.rawBody)).toEqual([body]);
    expect(seen[0]?.url).toBe("http://localhost/hook");
  });

  it("refuses a bad signature with 401 and one <platform>_rejected line with its reason", async () => {
    const { post, lines } = harness(bySignature);
    const res = await post("{}", "forged");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "invalid signature" });
    expect(lines).toEqual([{ event: "example_rejected", fields: { reason: "bad_signature" } }]);
  });

  it("answers 503 when the check cannot be made, so that the platform delivers again", async () => {
    const { post, lines } = harness(() => ({ ok: false, reason: "keys_unavailable", unavailable: true }));
    expect((await post("{}", "good")).status).toBe(503);
    expect(lines).toEqual([{ event: "example_rejected", fields: { reason: "keys_unavailable" } }]);
  });

  it("answers the platform's unsigned check before verifying anything", async () => {
    const { post, seen, lines } = harness(bySignature);
    const res = await post("ping");
    expect(await res.text()).toBe("pong");
    expect(seen).toEqual([]);
    expect(lines).toEqual([]);
  });
});
