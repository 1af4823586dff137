/**
 * @module
 * POST /discord/interactions: the webhook flow (./webhook.ts), answered `{"type":5}` (the user sees "thinking…"
 * until the job edits that message with the answer), or a short note for an interaction Parley does not handle.
 */
import { Hono } from "hono";
import { discord as adapter } from "../lib/platforms/discord/index.ts";
import { DEFERRED_ANSWER, UNSUPPORTED_ANSWER } from "../lib/platforms/discord/responses.ts";
import type { AppEnv } from "./app-env.ts";
import { platformWebhook } from "./webhook.ts";

export const discord = new Hono<AppEnv>();

discord.post(
  "/interactions",
  platformWebhook(adapter, {
    message: (c) => c.json(DEFERRED_ANSWER),
    nothing: (c) => c.json(UNSUPPORTED_ANSWER),
  }),
);
