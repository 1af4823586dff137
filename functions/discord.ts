/**
 * @module
 * POST /discord/interactions: verify → PING → parse → ingest → `{"type":5}` (the user sees "thinking…" until the
 * job edits that message with the answer).
 */
import { Hono } from "hono";
import { ingest } from "../lib/pipeline.ts";
import { parseDiscordInteraction } from "../lib/platforms/discord/parse.ts";
import { DISCORD_SIGNATURE_HEADER, DISCORD_TIMESTAMP_HEADER, verifyDiscordRequest } from "../lib/platforms/discord/verify.ts";
import { botIdentity, runtimeFor } from "../lib/runtime.ts";
import type { AppEnv } from "./http.ts";

/** Discord's interaction response types. */
const RESPONSE_TYPE = { PONG: 1, CHANNEL_MESSAGE_WITH_SOURCE: 4, DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: 5 } as const;
/** Only the person who used the command sees the message. */
const EPHEMERAL_FLAG = 64;

export const discord = new Hono<AppEnv>();

discord.post("/interactions", async (c) => {
  const rt = runtimeFor(c.env);
  const { DISCORD_PUBLIC_KEY: publicKey, DISCORD_APPLICATION_ID: applicationId } = rt.settings;
  if (!rt.platforms.discord || !publicKey || !applicationId) return c.json({ error: "discord is not configured" }, 404);
  const rawBody = await c.req.text();
  const verified = await verifyDiscordRequest({
    publicKey,
    signature: c.req.header(DISCORD_SIGNATURE_HEADER) ?? null,
    timestamp: c.req.header(DISCORD_TIMESTAMP_HEADER) ?? null,
    rawBody,
  });
  if (!verified.ok) {
    rt.log.warn("discord_rejected", { reason: verified.reason });
    return c.json({ error: "invalid request signature" }, 401);
  }
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return c.json({ error: "body is not JSON" }, 400);
  }
  const parsed = parseDiscordInteraction(body, { now: rt.now() });
  switch (parsed.kind) {
    case "ping":
      return c.json({ type: RESPONSE_TYPE.PONG });
    case "invalid":
      rt.log.warn("discord_invalid", { issues: parsed.issues });
      return c.json({ error: "unexpected interaction shape", issues: parsed.issues }, 400);
    case "unsupported":
      rt.log.info("discord_ignored", { reason: parsed.reason });
      return c.json({
        type: RESPONSE_TYPE.CHANNEL_MESSAGE_WITH_SOURCE,
        data: { content: "I don't know that one. Try /ask.", flags: EPHEMERAL_FLAG },
      });
    case "message":
      await ingest(rt, parsed.message, botIdentity(rt, applicationId));
      return c.json({ type: RESPONSE_TYPE.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE });
  }
});
