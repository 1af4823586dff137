/**
 * @module
 * POST /jobs/cleanup: QStash deliveries of an uninstalled tenant's cleanup (lib/tenants/cleanup-job.ts). Verified
 * like every job; a body that is not a cleanup is never retried.
 */
import { Hono } from "hono";
import { verifyQStashRequest } from "../lib/queue/verify.ts";
import { runtimeFor } from "../lib/runtime.ts";
import { CLEANUP_ROUTE, cleanupTaskSchema, runTenantCleanup } from "../lib/jobs/tenant-cleanup.ts";
import type { AppEnv } from "./http.ts";

/** QStash's "never retry" answer (as functions/jobs.ts). */
const NON_RETRYABLE = 489;

export const tenantCleanup = new Hono<AppEnv>();

tenantCleanup.post("/", async (c) => {
  const rt = runtimeFor(c.env);
  const rawBody = await c.req.text();
  const valid = await verifyQStashRequest(
    { current: rt.settings.QSTASH_CURRENT_SIGNING_KEY, next: rt.settings.QSTASH_NEXT_SIGNING_KEY },
    { signature: c.req.header("Upstash-Signature") ?? null, body: rawBody, url: `${rt.settings.PUBLIC_BASE_URL}/jobs/${CLEANUP_ROUTE}` },
  );
  if (!valid) {
    rt.log.warn("job_rejected", { kind: CLEANUP_ROUTE, reason: "bad_signature" });
    return c.json({ error: "invalid signature" }, 401);
  }
  const task = cleanupTaskSchema.safeParse(safeJson(rawBody));
  if (!task.success) {
    rt.log.error("job_invalid", { kind: CLEANUP_ROUTE });
    return new Response(JSON.stringify({ error: "invalid cleanup task" }), {
      status: NON_RETRYABLE,
      headers: { "Content-Type": "application/json", "Upstash-NonRetryable-Error": "true" },
    });
  }
  return c.json(await runTenantCleanup(rt, task.data));
});

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
