/**
 * @module
 * What the routes share: the Hono env type, and the first steps of every platform webhook (read the body once,
 * verify its signature, parse it), answered the same way on every platform.
 */
import type { Context } from "hono";
import type { ReplyTarget } from "../lib/message.ts";
import type { Parsed, PlatformAdapter, WebhookRequest } from "../lib/platforms/adapter.ts";
import { adapterContext } from "../lib/platforms/context.ts";
import type { Runtime } from "../lib/runtime.ts";

export interface AppEnv {
  Bindings: Record<string, unknown>;
}

export async function webhookRequest(c: Context<AppEnv>): Promise<WebhookRequest> {
  // Decoded by hand: workerd warns when .text() reads a body whose type is not text/* (Twilio posts a form).
  const rawBody = new TextDecoder().decode(await c.req.arrayBuffer());
  return { headers: c.req.raw.headers, rawBody, url: c.req.url };
}

/** What is left for the route to answer after verify and parse: a message for `ingest`, or nothing to do. */
export type Delivery<Extra> = Extract<Parsed<Extra>, { kind: "message" | "ignored" | "removed" }>;

/**
 * Verify → parse. A bad signature gets 401 (before anything of the body is read), a body that is not
 * what the platform sends gets 400, a protocol check its own answer; each is logged as `<platform>_rejected`,
 * `<platform>_invalid` and `<platform>_ignored`.
 */
export async function verifyAndParse<Extra>(
  c: Context<AppEnv>,
  rt: Runtime,
  adapter: Pick<PlatformAdapter<ReplyTarget, Extra>, "platform" | "verify" | "parse">,
  request: WebhookRequest,
): Promise<Response | Delivery<Extra>> {
  const ctx = adapterContext(rt);
  const verified = await adapter.verify(ctx, request);
  if (!verified.ok) {
    rt.log.warn(`${adapter.platform}_rejected`, { reason: verified.reason });
    return c.json({ error: "invalid signature" }, 401);
  }
  const parsed = adapter.parse(ctx, request);
  if (parsed.kind === "invalid") {
    rt.log.warn(`${adapter.platform}_invalid`, { issues: parsed.issues });
    return c.json({ error: `unexpected ${adapter.platform} payload`, issues: parsed.issues }, 400);
  }
  if (parsed.kind === "protocol") return parsed.response;
  if (parsed.kind === "ignored") rt.log.info(`${adapter.platform}_ignored`, { reason: parsed.reason });
  return parsed;
}
