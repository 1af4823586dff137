/**
 * @module
 * A Gateway connection wired to the pipeline: every MESSAGE_CREATE goes through the same `ingest` as the webhooks
 * (one whose ingest failed is tried again from the storage of the object that runs the connection), a 👎 reaction is
 * recorded, the bot's managed role in each guild (GUILD_CREATE) is kept in that storage so that a mention of the role
 * is a mention of the bot, and a GUILD_DELETE of a guild the bot was removed from forgets the role and starts that
 * guild's cleanup. What each dispatch means is ./dispatch.ts's to say. The Durable Object that runs it is
 * functions/discord-gateway.ts.
 */
import { ingest } from "../../../pipeline.ts";
import { errorMessage } from "../../../log.ts";
import { botIdentity, runtimeFor, type Runtime } from "../../../runtime.ts";
import { publishTenantCleanup } from "../../../tenants/cleanup-job.ts";
import { discord } from "../index.ts";
import { GatewayConnection, openSocketWithFetch } from "./connection.ts";
import { readGatewayDispatch } from "./dispatch.ts";
import { IngestRetries, type PendingStore } from "./ingest-retries.ts";
import { messageIds, parseGatewayMessage } from "./message.ts";
import type { InboundMessage } from "../../../message.ts";
import type { GatewaySnapshot, ShardTuple } from "./session-io.ts";
import { fetchGatewayBot, ShardCoordinator, type ShardDirectory, type ShardLayoutState } from "./shard-layout.ts";

export interface SnapshotStore {
  get(): Promise<GatewaySnapshot | undefined>;
  put(snapshot: GatewaySnapshot): Promise<void>;
}

/** The bot's managed role per guild, as GUILD_CREATE told it (a mention of it is a mention of the bot). */
export interface BotRoles {
  get(guildId: string): Promise<string | undefined>;
  set(guildId: string, roleId: string): Promise<void>;
  delete(guildId: string): Promise<void>;
}

/** What the Gateway object keeps: the session to resume, the messages whose ingest is to be tried again, the bot's roles. */
export interface GatewayStorage {
  snapshot: SnapshotStore;
  pending: PendingStore;
  botRoles: BotRoles;
}

/** Which shard a connection runs and how it waits for its IDENTIFY turn; absent for an unsharded connection. */
export interface ShardRun {
  shard: ShardTuple;
  identifyTurn(): Promise<void>;
}

/** Messages whose ingest failed are tried again from `storage.pending`, with the env's runtime. */
export function ingestRetries(env: object, storage: Pick<GatewayStorage, "pending" | "botRoles">): IngestRetries {
  const rt = runtimeFor(env);
  return new IngestRetries({ store: storage.pending, ingest: (data, botUserId) => ingestGatewayMessage(rt, data, botUserId, storage.botRoles), log: rt.log });
}

/** A Gateway connection whose messages feed the pipeline; null when Discord's bot token is not set. */
export function createGatewayConnection(env: object, storage: GatewayStorage, run?: ShardRun): GatewayConnection | null {
  const rt = runtimeFor(env);
  const token = rt.settings.DISCORD_BOT_TOKEN;
  if (!token) return null;
  const retries = ingestRetries(env, storage);
  return new GatewayConnection({
    token,
    gatewayUrl: rt.settings.DISCORD_GATEWAY_URL,
    load: () => storage.snapshot.get(),
    save: (snapshot) => storage.snapshot.put(snapshot),
    onDispatch: gatewayDispatch(rt, retries, storage.botRoles),
    log: rt.log,
    openSocket: openSocketWithFetch,
    ...(run ? { shard: run.shard, identifyTurn: () => run.identifyTurn() } : {}),
  });
}

/** The coordinator of the env's shards; null when Discord's bot token is not set. */
export function createShardCoordinator(
  env: object,
  store: { load(): Promise<ShardLayoutState | undefined>; save(state: ShardLayoutState): Promise<void> },
  shards: ShardDirectory,
  opts: { checkIntervalMs?: number } = {},
): ShardCoordinator | null {
  const rt = runtimeFor(env);
  const botToken = rt.settings.DISCORD_BOT_TOKEN;
  if (!botToken) return null;
  return new ShardCoordinator({
    ...store,
    recommend: () => fetchGatewayBot({ apiBaseUrl: rt.settings.DISCORD_API_BASE_URL, botToken }),
    shards,
    log: rt.log,
    ...opts,
  });
}

/**
 * MESSAGE_CREATE feeds the pipeline (tried again when its ingest fails); the rest as ./dispatch.ts reads it: a 👎,
 * the bot's role in a guild, a guild the bot was removed from (its cleanup).
 */
export function gatewayDispatch(rt: Runtime, retries: Pick<IngestRetries, "deliver">, botRoles: BotRoles) {
  return async (event: string, data: unknown, botUserId: string): Promise<void> => {
    if (event === "MESSAGE_CREATE") return retries.deliver(data, botUserId);
    const read = readGatewayDispatch(event, data, botIdentity(rt, botUserId), rt.now());
    switch (read.kind) {
      case "message":
        return ingestFeedback(rt, read.message, botUserId);
      case "bot_role":
        return botRoles.set(read.guildId, read.roleId);
      case "guild_removed":
        return guildRemoved(rt, read.guildId, botRoles);
      case "invalid":
        return rt.log.warn("discord_invalid", { source: "gateway", dispatch: event, issues: read.issues });
      case "ignored":
        return;
    }
  };
}

async function guildRemoved(rt: Runtime, guild: string, botRoles: BotRoles): Promise<void> {
  await botRoles.delete(guild);
  // A lost publish leaves the keys to their TTLs (facts: FACTS_TTL_DAYS); it is logged, never retried here.
  await publishTenantCleanup(rt, { platform: "discord", tenant: guild }).catch((err: unknown) =>
    rt.log.error("tenant_cleanup_publish_failed", { platform: "discord", tenant: guild, error: errorMessage(err) }),
  );
}

/** Throws when the message must be tried again (IngestRetries); one that needs no work or is malformed is logged. */
async function ingestGatewayMessage(rt: Runtime, data: unknown, botUserId: string, botRoles: BotRoles): Promise<void> {
  const bot = botIdentity(rt, botUserId);
  const { id, guildId } = messageIds(data);
  const roleId = guildId ? await botRoles.get(guildId) : undefined;
  const parsed = parseGatewayMessage(data, { ...bot, ...(roleId ? { roleId } : {}) });
  const message = id ? { message: id } : {};
  if (parsed.kind === "invalid") return rt.log.warn("discord_invalid", { source: "gateway", ...message, issues: parsed.issues });
  if (parsed.kind === "ignored") return rt.log.info("discord_ignored", { source: "gateway", ...message, reason: parsed.reason });
  await ingest(rt, parsed.message, bot, discord.ingestOptions(rt.settings));
}

/** A 👎 on the bot's answer. Not retried: losing one costs only the quiet it asked for, never a message. */
async function ingestFeedback(rt: Runtime, message: InboundMessage, botUserId: string): Promise<void> {
  await ingest(rt, message, botIdentity(rt, botUserId), discord.ingestOptions(rt.settings)).catch((err: unknown) =>
    rt.log.warn("discord_reaction_failed", { message: errorMessage(err) }),
  );
}
