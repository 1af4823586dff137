/**
 * @module
 * The cleanup of an uninstalled tenant runs as a QStash job (POST /jobs/cleanup), so that a large tenant cannot
 * time out the webhook; a run that did not reach the end of the keyspace publishes the next one from its cursor.
 * The payload names the tenant and the cursor, nothing else (no token, no message).
 */
import * as z from "../zod.ts";
import type { Tenancy } from "../keys.ts";
import { adapters } from "../platforms/index.ts";
import type { Runtime } from "../runtime.ts";
import { cleanupTenant } from "../tenants/cleanup.ts";

export const CLEANUP_ROUTE = "cleanup";

export const cleanupTaskSchema = z.object({
  platform: z.literal(adapters.map((adapter) => adapter.platform)),
  tenant: z.string().check(z.minLength(1)),
  cursor: z._default(z.string().check(z.regex(/^\d+$/)), "0"),
});
export type CleanupTask = z.output<typeof cleanupTaskSchema>;

export async function publishTenantCleanup(rt: Runtime, where: Tenancy, cursor = "0"): Promise<void> {
  const task: CleanupTask = { platform: where.platform, tenant: where.tenant, cursor };
  // app_uninstalled and tokens_revoked both arrive: one cleanup per tenant and cursor within QStash's dedup window.
  const { messageId } = await rt.queue.publishTask(CLEANUP_ROUTE, task, `cleanup-${where.platform}-${where.tenant.replace(/[^A-Za-z0-9]/g, "_")}-${cursor}`);
  rt.log.info("tenant_cleanup_published", { platform: where.platform, tenant: where.tenant, job: messageId });
}

export async function runTenantCleanup(rt: Runtime, task: CleanupTask): Promise<{ deleted: number; done: boolean }> {
  const { cursor, deleted } = await cleanupTenant(rt, task, task.cursor);
  const done = cursor === "0";
  if (!done) await publishTenantCleanup(rt, task, cursor);
  rt.log.info("tenant_cleaned", { platform: task.platform, tenant: task.tenant, deleted, done });
  return { deleted, done };
}
