/**
 * @module
 * POST /telegram/webhook: the webhook flow (./webhook.ts: the secret header checked before anything is read →
 * parse → ingest, a removed chat's cleanup, or a press of an approval's button, answered with answerCallbackQuery
 * first: lib/platforms/telegram/controls.ts) → 200 with an empty body. The answer goes out later, from the job,
 * through the Bot API; Telegram retries a delivery that got anything but a 2xx.
 */
import { Hono } from "hono";
import { telegram as adapter } from "../lib/platforms/telegram/index.ts";
import type { AppEnv } from "./app-env.ts";
import { platformOn, platformWebhook, signedBy } from "./webhook.ts";

export const telegram = new Hono<AppEnv>();

telegram.post(
  "/webhook",
  platformOn(adapter),
  signedBy(adapter),
  platformWebhook(adapter, {
    message: (c) => c.body(null, 200),
    nothing: (c) => c.body(null, 200),
  }),
);
