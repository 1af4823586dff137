/**
 * @module
 * Deleting everything Parley keeps for one tenant, after an uninstall: its installation first, if it is still the one
 * uninstalled (nothing more is recorded or posted for it), then every other key naming the tenant (conversations, seen
 * marks, drafts and claims, facts, opt-outs, visibilities, limits, budgets, traces), found with SCAN in bounded
 * batches; and the tenant's namespace of recalled passages (lib/memory/recall), when recall is on. Its digests'
 * QStash schedules are deleted before anything else, so that none fires into a place the bot has left. The bot removed
 * from one channel (a `left` delivery) deletes that channel's keys alone, the same way: the tenant's installation, its
 * people's facts and its recalled passages stay.
 */
import { RedisStore } from "../redis-store.ts";
import {
  channelKeyPattern,
  isChannelKey,
  isInstallationKey,
  isTenantKey,
  tenantKeyPattern,
  type Tenancy,
} from "../keys.ts";
import type { ConversationKey } from "../message.ts";
import type { Recall } from "../memory/recall/index-for.ts";
import type { DigestSlotStore } from "../digests/slots.ts";
import type { JobSchedules } from "../queue/schedules.ts";
import type { Installations, ReadInstallation } from "./installations.ts";

/** Keys asked of each SCAN step, and steps per run: a run stays well inside a job's time. */
const SCAN_COUNT = 500;
const STEPS_PER_RUN = 20;

export interface CleanupProgress {
  /** The SCAN cursor to go on from; "0" when the whole keyspace was walked. */
  cursor: string;
  deleted: number;
}

/** What a cleanup deletes: a tenant's keys, or with `channel` those of one of its channels. */
export type CleanupScope = Tenancy & { channel?: string };

/** Every key naming one tenant or channel (`tenantKeyPattern` in lib/keys.ts), found with SCAN, deleted in batches. */
export class TenantKeys extends RedisStore {
  /** One SCAN step from `cursor`: the tenant's keys it found deleted, installations left alone. */
  async deleteStep(where: CleanupScope, cursor: string): Promise<{ next: string; deleted: number }> {
    const prefix = this.prefix;
    const channel: ConversationKey | null = where.channel ? { ...where, channel: where.channel } : null;
    const match = channel ? channelKeyPattern(prefix, channel) : tenantKeyPattern(prefix, where);
    const [next, keys] = await this.redis.scan(cursor, { match, count: SCAN_COUNT });
    const ours = (key: string) => (channel ? isChannelKey(prefix, channel, key) : isTenantKey(prefix, where, key));
    // Installations go only at the start, by generation: a reinstall made during the walk is never deleted.
    const mine = keys.filter((key) => ours(key) && !isInstallationKey(prefix, key));
    return { next: String(next), deleted: mine.length > 0 ? await this.redis.del(...mine) : 0 };
  }
}

/** `installed`: the tenant's installation as read at the run's start, deleted only if it is still that one. */
export async function cleanupTenant(
  rt: {
    installations: Installations;
    tenantKeys: TenantKeys;
    recall: Recall | null;
    digests: DigestSlotStore;
    schedules: Pick<JobSchedules, "delete">;
  },
  where: CleanupScope,
  from = "0",
  installed: ReadInstallation | null = null,
): Promise<CleanupProgress> {
  let deleted = 0;
  if (from === "0" && !where.channel) {
    for (const scheduleId of await rt.digests.enlisted(where)) await rt.schedules.delete(scheduleId);
    if (installed && (await rt.installations.delete(where, installed))) deleted += 1;
    await rt.recall?.index.dropNamespace(rt.recall.namespace(where));
  }
  let cursor = from;
  for (let step = 0; step < STEPS_PER_RUN; step++) {
    const found = await rt.tenantKeys.deleteStep(where, cursor);
    deleted += found.deleted;
    cursor = found.next;
    if (cursor === "0") break;
  }
  return { cursor, deleted };
}
