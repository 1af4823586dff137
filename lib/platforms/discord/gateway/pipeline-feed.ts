/**
 * @module
 * A Gateway connection wired to the pipeline: every MESSAGE_CREATE goes through the same `ingest` as the webhooks
 * (one whose ingest failed is tried again from the storage of the object that runs the connection), a 👎 reaction is
 * recorded, and a GUILD_DELETE of a guild the bot was removed from starts that guild's cleanup. The Durable Object
 * that runs it is functions/discord-gateway.ts.
 */
import { ingest } from "../../../pipeline.ts";
import { errorMessage } from "../../../log.ts";
import { botIdentity, runtimeFor, type Runtime } from "../../../runtime.ts";
import { publishTenantCleanup } from "../../../tenants/cleanup-job.ts";
import { discord } from "../index.ts";
import { GatewayConnection, openSocketWithFetch } from "./connection.ts";
import { removedGuild } from "./guild-removed.ts";
import { IngestRetries, type PendingStore } from "./ingest-retries.ts";
import { parseGatewayMessage } from "./message.ts";
import { parseGatewayReaction } from "./reaction.ts";
import type { GatewaySnapshot, ShardTuple } from "./session-io.ts";
import { fetchGatewayBot, ShardCoordinator, type ShardDirectory, type ShardLayoutState } from "./shard-layout.ts";

export interface SnapshotStore {
  get(): Promise<GatewaySnapshot | undefined>;
  put(snapshot: GatewaySnapshot): Promise<void>;
}

/** What the Gateway object keeps: the session to resume, and the messages whose ingest is to be tried again. */
export interface GatewayStorage {
  snapshot: SnapshotStore;
  pending: PendingStore;
}

/** Which shard a connection runs and how it waits for its IDENTIFY turn; absent for an unsharded connection. */
export interface ShardRun {
  shard: ShardTuple;
  identifyTurn(): Promise<void>;
}

/** Messages whose ingest failed are tried again from `storage.pending`, with the env's runtime. */
export function ingestRetries(env: object, pending: PendingStore): IngestRetries {
  const rt = runtimeFor(env);
  return new IngestRetries({ store: pending, ingest: (data, botUserId) => ingestGatewayMessage(rt, data, botUserId), log: rt.log });
}

/** A Gateway connection whose messages feed the pipeline; null when Discord's bot token is not set. */
export function createGatewayConnection(env: object, storage: GatewayStorage, run?: ShardRun): GatewayConnection | null {
  const rt = runtimeFor(env);
  const token = rt.settings.DISCORD_BOT_TOKEN;
  if (!token) return null;
  const retries = ingestRetries(env, storage.pending);
  return new GatewayConnection({
    token,
    gatewayUrl: rt.settings.DISCORD_GATEWAY_URL,
    load: () => storage.snapshot.get(),
    save: (snapshot) => storage.snapshot.put(snapshot),
    onDispatch: gatewayDispatch(rt, retries),
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

/** MESSAGE_CREATE feeds the pipeline; GUILD_DELETE of a guild the bot was removed from starts the guild's cleanup. */
export function gatewayDispatch(rt: Runtime, retries: Pick<IngestRetries, "deliver">) {
  return async (event: string, data: unknown, botUserId: string): Promise<void> => {
    if (event === "MESSAGE_CREATE") return retries.deliver(data, botUserId);
    if (event === "MESSAGE_REACTION_ADD") return ingestGatewayReaction(rt, data, botUserId);
    const guild = event === "GUILD_DELETE" ? removedGuild(data) : null;
    if (!guild) return;
    // A lost publish leaves the keys to their TTLs (facts: FACTS_TTL_DAYS); it is logged, never retried here.
    await publishTenantCleanup(rt, { platform: "discord", tenant: guild }).catch((err: unknown) =>
      rt.log.error("tenant_cleanup_publish_failed", { platform: "discord", tenant: guild, error: errorMessage(err) }),
    );
  };
}

/** Throws when the message must be tried again (IngestRetries); one that needs no work or is malformed is logged. */
async function ingestGatewayMessage(rt: Runtime, data: unknown, botUserId: string): Promise<void> {
  const bot = botIdentity(rt, botUserId);
  const parsed = parseGatewayMessage(data, bot);
  if (parsed.kind === "invalid") return rt.log.warn("discord_invalid", { source: "gateway", issues: parsed.issues });
  if (parsed.kind === "ignored") return rt.log.info("discord_ignored", { source: "gateway", reason: parsed.reason });
  await ingest(rt, parsed.message, bot, discord.ingestOptions(rt.settings));
}

/** A 👎 on the bot's answer. Not retried: losing one costs only the quiet it asked for, never a message. */
async function ingestGatewayReaction(rt: Runtime, data: unknown, botUserId: string): Promise<void> {
  const parsed = parseGatewayReaction(data, botUserId, rt.now());
  if (parsed.kind === "invalid") return rt.log.warn("discord_invalid", { source: "gateway_reaction", issues: parsed.issues });
  if (parsed.kind === "ignored") return;
  await ingest(rt, parsed.message, botIdentity(rt, botUserId), discord.ingestOptions(rt.settings)).catch((err: unknown) =>
    rt.log.warn("discord_reaction_failed", { message: errorMessage(err) }),
  );
}
