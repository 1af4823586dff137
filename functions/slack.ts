/**
 * @module
 * POST /slack/events: ssl_check → verify → url_verification → parse → ingest → 200.
 */
import { Hono } from "hono";
import { ingest } from "../lib/pipeline.ts";
import { isSlackSslCheck, slack as adapter } from "../lib/platforms/slack/index.ts";
import { botIdentity, runtimeFor } from "../lib/runtime.ts";
import { verifyAndParse, webhookRequest, type AppEnv } from "./http.ts";

export const slack = new Hono<AppEnv>();

slack.post("/events", async (c) => {
  const rt = runtimeFor(c.env);
  if (!rt.platforms.slack) return c.json({ error: "slack is not configured" }, 404);
  const request = await webhookRequest(c);
  if (isSlackSslCheck(request)) return c.body(null, 200);
  const delivery = await verifyAndParse(c, rt, adapter, request);
  if (delivery instanceof Response) return delivery;
  if (delivery.kind === "message") {
    await ingest(rt, delivery.message, botIdentity(rt, delivery.botUserId), adapter.ingestOptions(rt.settings));
  }
  return c.body(null, 200);
});
