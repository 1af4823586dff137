/**
 * @module
 * A Gateway connection wired to ingest (lib/ingest.ts): every MESSAGE_CREATE goes through the same `ingest` as the
 * webhooks and a ✅ or ❌ decides the bot's question (each tried again from the storage of the object that runs the
 * connection when it failed, the Gateway never delivering it again), a 👎 reaction is recorded, the bot's managed
 * role in each guild (GUILD_CREATE) is kept in that storage so that a mention of the role is a mention of the bot,
 * and a GUILD_DELETE of a guild the bot was removed from forgets the role and starts that guild's cleanup. What each
 * dispatch means is lib/platforms/discord/gateway/dispatch.ts's to say. The Durable Object that runs it is
 * functions/discord-gateway.ts.
 */
import { ingest } from "../lib/ingest.ts";
import { answerApproval } from "../lib/approvals/decide.ts";
import { publishTenantCleanup } from "../lib/jobs/tenant-cleanup.ts";
import { errorMessage } from "../lib/log.ts";
import type { InboundMessage } from "../lib/message.ts";
import { GatewayConnection } from "../lib/platforms/discord/gateway/connection.ts";
import { openSocketWithFetch } from "../lib/platforms/discord/gateway/socket.ts";
import { readGatewayDispatch } from "../lib/platforms/discord/gateway/dispatch.ts";
import { IngestRetries, type PendingStore } from "../lib/platforms/discord/gateway/ingest-retries.ts";
import { messageIds, parseGatewayMessage } from "../lib/platforms/discord/gateway/message.ts";
import type { GatewaySnapshot, ShardTuple } from "../lib/platforms/discord/gateway/session-io.ts";
import {
  fetchGatewayBot,
  ShardCoordinator,
  type ShardDirectory,
  type ShardLayoutState,
} from "../lib/platforms/discord/gateway/shard-layout.ts";
import { discord } from "../lib/platforms/discord/index.ts";
import type { DiscordSettings } from "../lib/platforms/discord/settings.ts";
import { botIdentity, runtimeFor, type Runtime } from "../lib/runtime.ts";

interface SnapshotStore {
  get(): Promise<GatewaySnapshot | undefined>;
  put(snapshot: GatewaySnapshot): Promise<void>;
}

/** The bot's managed role per guild, as GUILD_CREATE told it (a mention of it is a mention of the bot). */
export interface BotRoles {
  get(guildId: string): Promise<string | undefined>;
  set(guildId: string, roleId: string): Promise<void>;
  delete(guildId: string): Promise<void>;
}

/**
 * What the Gateway object keeps: the session to resume, the messages whose ingest is to be tried again, the bot's
 * roles.
 */
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

/** Messages and approvals whose work failed are tried again from `storage.pending`, with the env's runtime. */
export function ingestRetries(env: object, storage: Pick<GatewayStorage, "pending" | "botRoles">): IngestRetries {
  const rt = runtimeFor(env);
  return new IngestRetries({
    store: storage.pending,
    ingest: (event, data, botUserId) =>
      event === "MESSAGE_CREATE"
        ? ingestGatewayMessage(rt, data, botUserId, storage.botRoles)
        : decideGatewayApproval(rt, event, data, botUserId),
    log: rt.log,
  });
}

/** Discord's settings when the Gateway can run (the bot token is set); null otherwise. */
export function gatewaySettings(rt: Runtime): DiscordSettings | null {
  const state = rt.platforms.state(discord.platform);
  if (state.status === "misconfigured") return null;
  const config = state.config as DiscordSettings;
  return config.DISCORD_BOT_TOKEN ? config : null;
}

/** A Gateway connection whose messages feed ingest; null when Discord's bot token is not set. */
export function createGatewayConnection(
  env: object,
  storage: GatewayStorage,
  run?: ShardRun,
): GatewayConnection | null {
  const rt = runtimeFor(env);
  const config = gatewaySettings(rt);
  if (!config) return null;
  const retries = ingestRetries(env, storage);
  return new GatewayConnection({
    token: config.DISCORD_BOT_TOKEN!,
    gatewayUrl: config.DISCORD_GATEWAY_URL,
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
  const config = gatewaySettings(rt);
  if (!config) return null;
  return new ShardCoordinator({
    ...store,
    recommend: () => fetchGatewayBot({ apiBaseUrl: config.DISCORD_API_BASE_URL, botToken: config.DISCORD_BOT_TOKEN! }),
    shards,
    log: rt.log,
    ...opts,
  });
}

/**
 * MESSAGE_CREATE feeds the pipeline (tried again when its ingest fails); the rest as
 * lib/platforms/discord/gateway/dispatch.ts reads it: a 👎, a ✅ or ❌ (tried again when its decision or continuation
 * fails), the bot's role in a guild, a guild the bot was removed from (its cleanup).
 */
export function gatewayDispatch(rt: Runtime, retries: Pick<IngestRetries, "deliver">, botRoles: BotRoles) {
  return async (event: string, data: unknown, botUserId: string): Promise<void> => {
    if (event === "MESSAGE_CREATE") return retries.deliver(data, botUserId);
    const read = readGatewayDispatch(event, data, botIdentity(rt, botUserId), rt.now());
    switch (read.kind) {
      case "message":
        return ingestFeedback(rt, read.message, botUserId);
      case "approval":
        return retries.deliver(data, botUserId, event);
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
  await publishTenantCleanup(rt, { platform: discord.platform, tenant: guild }).catch((err: unknown) =>
    rt.log.error("tenant_cleanup_publish_failed", {
      platform: discord.platform,
      tenant: guild,
      error: errorMessage(err),
    }),
  );
}

/** Throws when the message must be tried again (IngestRetries); one that needs no work or is malformed is logged. */
async function ingestGatewayMessage(rt: Runtime, data: unknown, botUserId: string, botRoles: BotRoles): Promise<void> {
  const bot = botIdentity(rt, botUserId);
  const { id, guildId } = messageIds(data);
  const roleId = guildId ? await botRoles.get(guildId) : undefined;
  const parsed = parseGatewayMessage(data, { ...bot, ...(roleId ? { roleId } : {}) });
  const message = id ? { message: id } : {};
  if (parsed.kind === "invalid")
    return rt.log.warn("discord_invalid", { source: "gateway", ...message, issues: parsed.issues });
  if (parsed.kind === "ignored")
    return rt.log.info("discord_ignored", { source: "gateway", ...message, reason: parsed.reason });
  await ingest(rt, parsed.message, bot, discord.ingestOptions(rt.platforms.configOf(discord)));
}

/** A ✅ or ❌ kept by IngestRetries; throws when its decision or its continuation's publish must be tried again. */
async function decideGatewayApproval(rt: Runtime, event: string, data: unknown, botUserId: string): Promise<void> {
  const read = readGatewayDispatch(event, data, botIdentity(rt, botUserId), rt.now());
  if (read.kind === "approval") await answerApproval(rt, read.answer);
}

/** A 👎 on the bot's answer. Not retried: losing one costs only the quiet it asked for, never a message. */
async function ingestFeedback(rt: Runtime, message: InboundMessage, botUserId: string): Promise<void> {
  await ingest(rt, message, botIdentity(rt, botUserId), discord.ingestOptions(rt.platforms.configOf(discord))).catch(
    (err: unknown) => rt.log.warn("discord_reaction_failed", { message: errorMessage(err) }),
  );
}
