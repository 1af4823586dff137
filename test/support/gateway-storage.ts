/**
 * @module
 * The Discord Gateway object's storage, in memory, for worker tests that run a Gateway connection themselves:
 * its alarm is a timer that runs the ingest retries with `env`.
 */
import { ingestRetries, type GatewayStorage } from "../../functions/discord-gateway.ts";
import type { PendingIngest, PendingStore } from "../../lib/platforms/discord/gateway/ingest-retries.ts";
import type { GatewaySnapshot } from "../../lib/platforms/discord/gateway/session.ts";

export function memoryGatewayStorage(env: () => object): GatewayStorage {
  let stored: GatewaySnapshot | undefined;
  const pending = new Map<string, PendingIngest>();
  let alarm: ReturnType<typeof setTimeout> | undefined;
  const store: PendingStore = {
    all: async () => [...pending.values()],
    put: async (entry) => void pending.set(entry.id, entry),
    delete: async (id) => void pending.delete(id),
    wakeAt: async (at) => {
      clearTimeout(alarm);
      alarm = setTimeout(() => void ingestRetries(env(), store).retryDue(), Math.max(0, at - Date.now()));
    },
  };
  return { snapshot: { get: async () => stored, put: async (s) => void (stored = s) }, pending: store };
}
