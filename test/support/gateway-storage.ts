/**
 * @module
 * A Gateway object's storage in memory, for tests that run Gateway connections outside a Durable Object: the
 * session snapshot, the messages whose ingest is to be tried again, with a timer for the object's alarm, and the
 * bot's role per guild.
 */
import {
  createGatewayConnection,
  ingestRetries,
  type BotRoles,
  type GatewayStorage,
} from "../../functions/discord-gateway-feed.ts";
import type { GatewayConnection } from "../../lib/platforms/discord/gateway/connection.ts";
import type { PendingIngest, PendingStore } from "../../lib/platforms/discord/gateway/ingest-retries.ts";
import { eventually } from "./worker.ts";
import type { GatewaySnapshot } from "../../lib/platforms/discord/gateway/session-io.ts";

export function memoryGatewayStorage(env: object): GatewayStorage {
  let stored: GatewaySnapshot | undefined;
  const pending = new Map<string, PendingIngest>();
  const botRoles = memoryBotRoles();
  let alarm: ReturnType<typeof setTimeout> | undefined;
  const store: PendingStore = {
    all: async () => [...pending.values()],
    put: async (entry) => void pending.set(entry.id, entry),
    delete: async (id) => void pending.delete(id),
    wakeAt: async (at) => {
      clearTimeout(alarm);
      alarm = setTimeout(
        () => void ingestRetries(env, { pending: store, botRoles }).retryDue(),
        Math.max(0, at - Date.now()),
      );
    },
  };
  return { snapshot: { get: async () => stored, put: async (s) => void (stored = s) }, pending: store, botRoles };
}

export function memoryBotRoles(): BotRoles {
  const roles = new Map<string, string>();
  return {
    get: async (guildId) => roles.get(guildId),
    set: async (guildId, roleId) => void roles.set(guildId, roleId),
    delete: async (guildId) => void roles.delete(guildId),
  };
}

/** A Gateway connection of the suite's own, outside a Durable Object, once it is ready. */
export async function readyGateway(env: object): Promise<GatewayConnection> {
  const connection = createGatewayConnection(env, memoryGatewayStorage(env))!;
  await connection.start();
  await eventually(async () => connection.status().phase === "ready", 10_000, "the Gateway to be ready");
  return connection;
}
