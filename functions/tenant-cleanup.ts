/**
 * @module
 * POST /jobs/cleanup: QStash deliveries of an uninstalled tenant's cleanup (lib/jobs/tenant-cleanup.ts). Verified
 * like every job; a body that is not a cleanup is never retried.
 */
import { Hono } from "hono";
import { runTenantCleanup, cleanupTaskSchema } from "../lib/jobs/tenant-cleanup.ts";
import { runtimeFor } from "../lib/runtime.ts";
import type { AppEnv } from "./app-env.ts";
import { nonRetryable, qstashSignature } from "./middleware/qstash-signature.ts";

export const tenantCleanup = new Hono<AppEnv>();

tenantCleanup.post("/", qstashSignature(), async (c) => {
  const rt = runtimeFor(c.env);
  const task = cleanupTaskSchema.safeParse(safeJson(c.var.rawBody));
  if (!task.success) {
    rt.log.error("job_invalid", { kind: "cleanup" });
    return nonRetryable(c, "invalid cleanup task");
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
