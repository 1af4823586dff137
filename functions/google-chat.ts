/**
 * @module
 * POST /google-chat/events: the webhook flow (./webhook.ts: the bearer token checked before anything is read →
 * parse → ingest, or a space's cleanup once the app is removed from it) → 200 with an empty JSON object, which asks
 * Chat to post nothing: the answer goes out later, from the job, through the Chat API. Chat waits up to 30 seconds
 * for this answer.
 */
import { Hono } from "hono";
import { googleChat as adapter } from "../lib/platforms/google-chat/index.ts";
import type { AppEnv } from "./app-env.ts";
import { platformOn, platformWebhook, signedBy } from "./webhook.ts";

export const googleChat = new Hono<AppEnv>();

googleChat.post(
  "/events",
  platformOn(adapter),
  signedBy(adapter),
  platformWebhook(adapter, {
    message: (c) => c.json({}),
    nothing: (c) => c.json({}),
  }),
);
