/**
 * @module
 * POST /discord/interactions: verify → PING → parse → ingest → `{"type":5}` (the user sees "thinking…" until the
 * job edits that message with the answer).
 */
import { Hono } from "hono";
import { ingest } from "../lib/ingest.ts";
import { discord as adapter } from "../lib/platforms/discord/index.ts";
import { DEFERRED_ANSWER, UNSUPPORTED_ANSWER } from "../lib/platforms/discord/responses.ts";
import { botIdentity, runtimeFor } from "../lib/runtime.ts";
import { verifyAndParse, webhookRequest, type AppEnv } from "./http.ts";

export const discord = new Hono<AppEnv>();

discord.post("/interactions", async (c) => {
  const rt = runtimeFor(c.env);
  if (!rt.platforms.discord) return c.json({ error: "discord is not configured" }, 404);
  const delivery = await verifyAndParse(c, rt, adapter, await webhookRequest(c));
  if (delivery instanceof Response) return delivery;
  if (delivery.kind !== "message") return c.json(UNSUPPORTED_ANSWER);
  await ingest(rt, delivery.message, botIdentity(rt, delivery.botUserId), adapter.ingestOptions(rt.settings));
  return c.json(DEFERRED_ANSWER);
});
