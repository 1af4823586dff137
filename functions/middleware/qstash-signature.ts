/**
 * @module
 * QStash's deliveries, verified before anything of them is read: the `Upstash-Signature` JWT over the raw body, with
 * the current and the next signing key, for the URL we published to (PUBLIC_BASE_URL + the route's path, not the
 * URL the request arrived on, which a proxy or a tunnel may have rewritten). A bad signature gets 401 and the
 * `job_rejected` log line; the body goes on to the route as `c.var.rawBody`. Also QStash's "never retry" answer.
 */
import type { Context, MiddlewareHandler } from "hono";
import { verifyQStashRequest } from "../../lib/queue/verify.ts";
import { runtimeFor } from "../../lib/runtime.ts";
import type { AppEnv } from "../app-env.ts";

/** QStash retries any other status; this one (with the header below) it never retries. */
export const NON_RETRYABLE = 489;
const SIGNATURE_HEADER = "Upstash-Signature";

export function qstashSignature(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const rt = runtimeFor(c.env);
    const rawBody = await c.req.text();
    const valid = await verifyQStashRequest(
      { current: rt.settings.QSTASH_CURRENT_SIGNING_KEY, next: rt.settings.QSTASH_NEXT_SIGNING_KEY },
      {
        signature: c.req.header(SIGNATURE_HEADER) ?? null,
        body: rawBody,
        url: `${rt.settings.PUBLIC_BASE_URL}${c.req.path}`,
      },
    );
    if (!valid) {
      rt.log.warn("job_rejected", { kind: c.req.path.split("/").at(-1), reason: "bad_signature" });
      return c.json({ error: "invalid signature" }, 401);
    }
    c.set("rawBody", rawBody);
    await next();
  };
}

/** A delivery that can never succeed (not a job at all): QStash must not try it again. */
export function nonRetryable(c: Context<AppEnv>, error: string): Response {
  runtimeFor(c.env).log.error("job_rejected", { reason: error });
  return new Response(JSON.stringify({ error }), {
    status: NON_RETRYABLE,
    headers: { "Content-Type": "application/json", "Upstash-NonRetryable-Error": "true" },
  });
}
