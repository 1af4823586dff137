/**
 * @module
 * The Discord Gateway connection, kept by one Durable Object (one per shard for a bot in many guilds: the cron's
 * `wakeDiscordGateway` asks `GET /gateway/bot` how many): every MESSAGE_CREATE goes through the same `ingest` as
 * the webhooks, and one whose ingest failed is tried again from the object's storage (its alarm wakes it); a
 * GUILD_DELETE of a guild the bot was removed from starts that guild's cleanup. Optional: without
 * DISCORD_BOT_TOKEN nothing connects. The cron trigger calls `wakeDiscordGateway`, so the connections come back
 * after an object was evicted or restarted.
 */
import { DurableObject } from "cloudflare:workers";
import { ingest } from "../lib/pipeline.ts";
import { GatewayConnection, openSocketWithFetch, type GatewayStatus } from "../lib/platforms/discord/gateway/connection.ts";
import { IngestRetries, type PendingIngest, type PendingStore } from "../lib/platforms/discord/gateway/ingest-retries.ts";
import { removedGuild } from "../lib/platforms/discord/gateway/guild-removed.ts";
import { parseGatewayMessage } from "../lib/platforms/discord/gateway/message.ts";
import { discord } from "../lib/platforms/discord/index.ts";
import type { GatewaySnapshot, ShardTuple } from "../lib/platforms/discord/gateway/session.ts";
import { fetchGatewayBot, IDENTIFY_SPACING_MS, identifyGroups } from "../lib/platforms/discord/gateway/shards.ts";
import { errorMessage } from "../lib/log.ts";
import { botIdentity, runtimeFor, type Runtime } from "../lib/runtime.ts";
import { publishTenantCleanup } from "../lib/tenants/cleanup-job.ts";

/** The binding name in wrangler.toml. */
export const GATEWAY_BINDING = "DISCORD_GATEWAY";
/** An unsharded bot's one connection, and shard 0 of a sharded one; shard n lives in `gateway-shard-<n>`. */
const GATEWAY_OBJECT_NAME = "gateway";
const SNAPSHOT_KEY = "snapshot";
/** Storage keys of messages whose ingest is to be tried again. */
const PENDING_PREFIX = "ingest:";
const ENSURE_PATH = "/ensure";
const STATUS_PATH = "/status";

export interface SnapshotStore {
  get(): Promise<GatewaySnapshot | undefined>;
  put(snapshot: GatewaySnapshot): Promise<void>;
}

/** What the Gateway object keeps: the session to resume, and the messages whose ingest is to be tried again. */
export interface GatewayStorage {
  snapshot: SnapshotStore;
  pending: PendingStore;
}

/** Messages whose ingest failed are tried again from `storage.pending`, with the env's runtime. */
export function ingestRetries(env: object, pending: PendingStore): IngestRetries {
  const rt = runtimeFor(env);
  return new IngestRetries({ store: pending, ingest: (data, botUserId) => ingestGatewayMessage(rt, data, botUserId), log: rt.log });
}

/** A Gateway connection whose messages feed the pipeline; null when Discord's bot token is not set. */
export function createGatewayConnection(env: object, storage: GatewayStorage, shard?: ShardTuple): GatewayConnection | null {
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
    ...(shard ? { shard } : {}),
  });
}

/** MESSAGE_CREATE feeds the pipeline; GUILD_DELETE of a guild the bot was removed from starts the guild's cleanup. */
export function gatewayDispatch(rt: Runtime, retries: Pick<IngestRetries, "deliver">) {
  return async (event: string, data: unknown, botUserId: string): Promise<void> => {
    if (event === "MESSAGE_CREATE") return retries.deliver(data, botUserId);
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

export class DiscordGateway extends DurableObject<Record<string, unknown>> {
  #connection: GatewayConnection | null | undefined;

  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname;
    const shard = shardOfQuery(url.searchParams);
    // The cron names the shard each time: a new shard count (resharding) replaces the connection.
    if (this.#connection && shard && JSON.stringify(this.#connection.status().shard) !== JSON.stringify(shard)) {
      this.#connection.shutdown();
      this.#connection = undefined;
    }
    if (this.#connection === undefined) {
      const storage = this.ctx.storage;
      this.#connection = createGatewayConnection(
        this.env,
        {
          snapshot: { get: () => storage.get<GatewaySnapshot>(SNAPSHOT_KEY), put: (snapshot) => storage.put(SNAPSHOT_KEY, snapshot) },
          pending: this.#pending(),
        },
        shard,
      );
    }
    if (path === ENSURE_PATH && this.#connection) await this.#connection.start();
    const status: GatewayStatus | { phase: "disabled" } = this.#connection?.status() ?? { phase: "disabled" };
    if (path === ENSURE_PATH || path === STATUS_PATH) return Response.json(status);
    return Response.json({ error: "not found" }, { status: 404 });
  }

  /** Woken to try again the messages whose ingest failed (the object may have been evicted meanwhile). */
  override async alarm(): Promise<void> {
    await ingestRetries(this.env, this.#pending()).retryDue();
  }

  #pending(): PendingStore {
    const storage = this.ctx.storage;
    return {
      all: async () => [...(await storage.list<PendingIngest>({ prefix: PENDING_PREFIX })).values()],
      put: (entry) => storage.put(`${PENDING_PREFIX}${entry.id}`, entry),
      delete: async (id) => void (await storage.delete(`${PENDING_PREFIX}${id}`)),
      wakeAt: (at) => storage.setAlarm(at),
    };
  }
}

/** `?shard=<id>&count=<n>` of an ensure request; undefined for an unsharded bot. */
function shardOfQuery(query: URLSearchParams): ShardTuple | undefined {
  const id = Number(query.get("shard"));
  const count = Number(query.get("count"));
  return Number.isInteger(id) && Number.isInteger(count) && count > 1 && id >= 0 && id < count && query.has("shard") ? [id, count] : undefined;
}

/**
 * Starts (or keeps) every Gateway connection: one per shard that `GET /gateway/bot` recommends, each in its own
 * Durable Object, the groups of one IDENTIFY bucket 5 s apart. Does nothing without a bot token or the binding;
 * when Discord cannot be asked, the objects keep the layout they have.
 */
export async function wakeDiscordGateway(env: Record<string, unknown>): Promise<void> {
  const namespace = env[GATEWAY_BINDING] as DurableObjectNamespace | undefined;
  const rt = runtimeFor(env);
  const token = rt.settings.DISCORD_BOT_TOKEN;
  if (!namespace || !token) return;
  const groups = await fetchGatewayBot(rt.settings.DISCORD_API_BASE_URL, token).then(identifyGroups, (err: unknown) => {
    rt.log.warn("discord_gateway_bot_failed", { error: errorMessage(err) });
    return null;
  });
  if (!groups || groups.flat().length <= 1) return void (await ensureShard(namespace, undefined));
  await startInGroups(groups, (shard) => ensureShard(namespace, shard));
}

/** The spacing counts from the start; the IDENTIFY itself goes after the socket opened and HELLO came. */
const HANDSHAKE_ALLOWANCE_MS = 1_000;

/**
 * Starts the shards group by group (./shards.ts `identifyGroups`); `start` answers the shard's phase. A shard that
 * just began to identify holds its bucket for 5 s, so the next group waits; shards already connected do not.
 */
export async function startInGroups(groups: ShardTuple[][], start: (shard: ShardTuple) => Promise<string>): Promise<void> {
  for (const [i, group] of groups.entries()) {
    const phases = await Promise.all(group.map(start));
    const waitMs = IDENTIFY_SPACING_MS + HANDSHAKE_ALLOWANCE_MS;
    if (i < groups.length - 1 && phases.some((phase) => phase !== "ready")) await new Promise((r) => setTimeout(r, waitMs));
  }
}

async function ensureShard(namespace: DurableObjectNamespace, shard: ShardTuple | undefined): Promise<string> {
  const name = shard && shard[0] > 0 ? `${GATEWAY_OBJECT_NAME}-shard-${shard[0]}` : GATEWAY_OBJECT_NAME;
  const query = shard ? `?shard=${shard[0]}&count=${shard[1]}` : "";
  const response = await namespace.get(namespace.idFromName(name)).fetch(`https://discord-gateway${ENSURE_PATH}${query}`, { method: "POST" });
  return ((await response.json()) as { phase: string }).phase;
}
