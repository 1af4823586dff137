/**
 * @module
 * A platform's signed delivery, verified before anything of it is read: the body read once (the signature covers
 * these exact bytes), an unsigned protocol check answered first where the platform sends one (Slack's ssl_check),
 * then the platform's check. A refusal is logged `<platform>_rejected` with its reason and answered 401; a check
 * that could not be made (the platform's keys could not be fetched) 503, so that the platform delivers again. The
 * request as verified goes on to the route as `c.var.webhook`.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { Logger } from "../../lib/log.ts";
import type { Verified, WebhookRequest } from "../../lib/platforms/adapter.ts";
import type { AppEnv } from "../app-env.ts";

/** What one request is checked with: the platform's verification, bound to its settings, and where to log. */
interface WebhookCheck {
  verify(request: WebhookRequest): Promise<Verified>;
  log: Logger;
}

export interface VerifiedWebhookOptions {
  /** Names the log line: `slack` logs `slack_rejected`. */
  platform: string;
  check(c: Context<AppEnv>): WebhookCheck;
  /** An unsigned request the platform sends, answered before the signature check; null for any other. */
  unsigned?(request: WebhookRequest): Response | null;
}

export function verifiedWebhook(options: VerifiedWebhookOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // Decoded by hand: workerd warns when .text() reads a body whose type is not text/* (Twilio posts a form).
    const rawBody = new TextDecoder().decode(await c.req.arrayBuffer());
    const request: WebhookRequest = { headers: c.req.raw.headers, rawBody, url: c.req.url };
    const unsigned = options.unsigned?.(request);
    if (unsigned) return unsigned;
    const { verify, log } = options.check(c);
    const verified = await verify(request);
    if (!verified.ok) {
      log.warn(`${options.platform}_rejected`, { reason: verified.reason });
      if (verified.unavailable) return c.json({ error: "the signature cannot be checked now, try again" }, 503);
      return c.json({ error: "invalid signature" }, 401);
    }
    c.set("webhook", request);
    await next();
  };
}
