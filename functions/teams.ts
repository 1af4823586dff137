/**
 * @module
 * POST /teams/messages: the webhook flow (./webhook.ts: the Bot Connector's bearer token checked before anything
 * is read → parse → ingest) → 200 with an empty body, at once: the Connector waits about 15 seconds for it, and the
 * answer goes out later, from the job, through the Bot Connector API.
 */
import { Hono } from "hono";
import { teams as adapter } from "../lib/platforms/teams/index.ts";
import type { AppEnv } from "./app-env.ts";
import { platformOn, platformWebhook, signedBy } from "./webhook.ts";

export const teams = new Hono<AppEnv>();

const acknowledged = () => new Response(null, { status: 200 });

teams.post(
  "/messages",
  platformOn(adapter),
  signedBy(adapter),
  platformWebhook(adapter, { message: acknowledged, nothing: acknowledged }),
);
