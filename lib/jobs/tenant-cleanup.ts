/**
 * @module
 * The cleanup of an uninstalled tenant runs as a QStash job (POST /jobs/cleanup), so that a large tenant cannot
 * time out the webhook; a run that did not reach the end of the keyspace publishes the next one from its cursor.
 * The payload names the tenant, the install it cleans up after and the cursor, nothing else (no token, no message).
 *
 * Generation-aware: the task carries the install id of the installation that was uninstalled. Every run first
 * looks at the tenant's installation now; one with another id (or any, for a task that knew none) is a reinstall
 * made since, and the cleanup stops there: a run QStash retries minutes later never deletes a reinstall or the
 * data recorded for it. The deduplication id names that install too, so Slack's two uninstall events (app_uninstalled,
 * tokens_revoked) make one cleanup, and an uninstall after a reinstall makes its own.
 */
import * as z from "../zod.ts";
import type { Tenancy } from "../keys.ts";
import type { ConversationKey } from "../message.ts";
import { errorMessage } from "../log.ts";
import { adapters } from "../platforms/index.ts";
import type { Runtime } from "../runtime.ts";
import { cleanupTenant } from "../tenants/cleanup.ts";

const CLEANUP_ROUTE = "cleanup";

export const cleanupTaskSchema = z.object({
  platform: z.literal(adapters.map((adapter) => adapter.platform)),
  tenant: z.string().check(z.minLength(1)),
  cursor: z._default(z.string().check(z.regex(/^\d+$/)), "0"),
  /** The uninstalled installation's id; absent when the tenant had none with an id (settings' tokens, Discord). */
  installId: z.optional(z.string().check(z.minLength(1))),
  /** The one channel the bot was removed from (`publishPlaceCleanup`): its keys go, the tenant's installation stays. */
  channel: z.optional(z.string().check(z.minLength(1))),
});
export type CleanupTask = z.output<typeof cleanupTaskSchema>;

/** What is removed: a tenant (the installation serving it with it), or with `accessRevoked` its data only. */
export type Removal = Tenancy & { accessRevoked?: boolean };

/**
 * Publishes the first run of a removal's cleanup. An uninstall names the tenant an event came from; the stored
 * installation that served it says what went: the workspace's own, or a Slack org's org-wide install (all of it).
 */
export async function publishTenantCleanup(rt: Runtime, removal: Removal): Promise<void> {
  const served = removal.accessRevoked ? null : await servingInstallation(rt, removal);
  const task: CleanupTask = {
    platform: removal.platform,
    tenant: served?.tenant ?? removal.tenant,
    cursor: "0",
    ...(served?.installId ? { installId: served.installId } : {}),
  };
  await publishRun(rt, task);
}

/** The bot removed from one channel: the channel's keys (kept messages, conversations, settings) deleted by a job. */
export async function publishPlaceCleanup(rt: Runtime, place: ConversationKey): Promise<void> {
  await publishRun(rt, { platform: place.platform, tenant: place.tenant, channel: place.channel, cursor: "0" });
}

async function publishRun(rt: Runtime, task: CleanupTask): Promise<void> {
  // Without an install id nothing tells two removals apart: each gets a run of its own (deleting twice is harmless).
  const generation = task.installId ?? crypto.randomUUID();
  const scope = [task.tenant, ...(task.channel ? [task.channel] : [])].join("-").replace(/[^A-Za-z0-9]/g, "_");
  const dedupId = `cleanup-${task.platform}-${scope}-${generation}-${task.cursor}`;
  const { messageId } = await rt.queue.publishTask(CLEANUP_ROUTE, task, dedupId);
  rt.log.info("tenant_cleanup_published", {
    platform: task.platform,
    tenant: task.tenant,
    job: messageId,
    cursor: task.cursor,
  });
}

async function servingInstallation(
  rt: Runtime,
  where: Tenancy,
): Promise<{ tenant: string; installId?: string } | null> {
  try {
    return await rt.installations.forTenant(where.platform, where.tenant);
  } catch (err) {
    // Unreadable (its key is gone from the settings): the tenant as named is cleaned up, its installation with it.
    rt.log.warn("tenant_cleanup_installation_unreadable", {
      platform: where.platform,
      tenant: where.tenant,
      error: errorMessage(err),
    });
    return null;
  }
}

export async function runTenantCleanup(
  rt: Runtime,
  task: CleanupTask,
): Promise<{ deleted: number; done: boolean; superseded?: true }> {
  const where = { platform: task.platform, tenant: task.tenant };
  // One channel's cleanup leaves the installation alone, whichever it is.
  const installed = task.channel ? null : await rt.installations.read(where).catch(() => null);
  if (installed && installed.installation.installId !== task.installId) {
    rt.log.info("tenant_cleanup_superseded", { ...where, cursor: task.cursor });
    return { deleted: 0, done: true, superseded: true };
  }
  const scope = task.channel ? { ...where, channel: task.channel } : where;
  const { cursor, deleted } = await cleanupTenant(rt, scope, task.cursor, installed);
  const done = cursor === "0";
  if (!done) await publishRun(rt, { ...task, cursor });
  rt.log.info("tenant_cleaned", { ...where, deleted, done, place: task.channel !== undefined });
  return { deleted, done };
}
