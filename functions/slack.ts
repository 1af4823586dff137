/**
 * @module
 * POST /slack/events: verify → answer protocol checks → parse → ingest → 200.
 */
import { Hono } from "hono";
import { ingest } from "../lib/pipeline.ts";
import { parseSlackEvent } from "../lib/platforms/slack/parse.ts";
import { verifySlackRequest } from "../lib/platforms/slack/verify.ts";
import { botIdentity, runtimeFor } from "../lib/runtime.ts";
import type { AppEnv } from "./http.ts";

const RETRY_NUM_HEADER = "X-Slack-Retry-Num";

export const slack = new Hono<AppEnv>();

slack.post("/events", async (c) => {
  const rt = runtimeFor(c.env);
  const { SLACK_SIGNING_SECRET: secret } = rt.settings;
  if (!rt.platforms.slack || !secret) return c.json({ error: "slack is not configured" }, 404);
  const rawBody = await c.req.text();
  // Slack's ssl_check is an unsigned form post that only wants a 200.
  if (c.req.header("Content-Type")?.startsWith("application/x-www-form-urlencoded")) {
    const form = new URLSearchParams(rawBody);
    if (form.get("ssl_check") === "1") return c.body(null, 200);
  }
  const verified = await verifySlackRequest({
    signingSecret: secret,
    timestamp: c.req.header("X-Slack-Request-Timestamp") ?? null,
    signature: c.req.header("X-Slack-Signature") ?? null,
    rawBody,
    nowSeconds: Math.floor(rt.now() / 1000),
  });
  if (!verified.ok) {
    rt.log.warn("slack_rejected", { reason: verified.reason });
    return c.json({ error: "invalid signature" }, 401);
  }
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return c.json({ error: "body is not JSON" }, 400);
  }
  const retryNum = Number(c.req.header(RETRY_NUM_HEADER) ?? 0) || 0;
  const parsed = parseSlackEvent(body, { botName: rt.settings.BOT_NAME, retryNum });
  switch (parsed.kind) {
    case "invalid":
      rt.log.warn("slack_invalid", { issues: parsed.issues });
      return c.json({ error: "unexpected event shape", issues: parsed.issues }, 400);
    case "url_verification":
      return c.json({ challenge: parsed.challenge });
    case "ignored":
      rt.log.info("slack_ignored", { reason: parsed.reason });
      return c.body(null, 200);
    case "message":
      await ingest(rt, parsed.message, botIdentity(rt, parsed.bot.userId));
      return c.body(null, 200);
  }
});
