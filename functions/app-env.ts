/**
 * @module
 * The Hono env of every route: the Worker's bindings, and what a middleware hands on (the request it verified).
 */
import type { WebhookRequest } from "../lib/platforms/adapter.ts";

export interface AppEnv {
  Bindings: Record<string, unknown>;
  Variables: {
    /** The request body as read once by a signature check (functions/middleware/qstash-signature.ts). */
    rawBody: string;
    /** A platform's delivery as read once and verified (functions/middleware/verified-webhook.ts). */
    webhook: WebhookRequest;
  };
}
