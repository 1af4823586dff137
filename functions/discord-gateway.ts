/**
 * @module
 * The Discord Gateway, one Durable Object per shard: it runs the shard's connection, fed into the pipeline by
 * functions/discord-gateway-feed.ts, keeps its session, the messages whose ingest is to be tried
 * again (its alarm wakes it) and the bot's managed role in each of the shard's guilds in its storage. Optional:
 * without DISCORD_BOT_TOKEN nothing connects.
 * The cron trigger calls `wakeDiscordGateway`, which ticks the coordinating object (the same class under another
 * name): it keeps the shard layout Discord recommends, wakes every shard (so a connection comes back after its
 * object was evicted or restarted), hands out IDENTIFY turns per concurrency bucket, and reshards
 * (lib/platforms/discord/gateway/shard-layout.ts).
 */
import { DurableObject } from "cloudflare:workers";
import type { GatewayConnection } from "../lib/platforms/discord/gateway/connection.ts";
import { IdentifyTurns } from "../lib/platforms/discord/gateway/identify-turns.ts";
import type { PendingIngest } from "../lib/platforms/discord/gateway/ingest-retries.ts";
import type { GatewaySnapshot, ShardTuple } from "../lib/platforms/discord/gateway/session-io.ts";
import type { ShardDirectory, ShardLayoutState } from "../lib/platforms/discord/gateway/shard-layout.ts";
import type { GatewayStatus } from "../lib/platforms/discord/gateway/status.ts";
import { runtimeFor } from "../lib/runtime.ts";
import * as z from "../lib/zod.ts";
import {
  createGatewayConnection,
  createShardCoordinator,
  type GatewayStorage,
  gatewaySettings,
  ingestRetries,
} from "./discord-gateway-feed.ts";

/** The binding name in wrangler.toml. */
const GATEWAY_BINDING = "DISCORD_GATEWAY";
/** The object that keeps the shard layout and the IDENTIFY turns. */
const COORDINATOR_OBJECT_NAME = "gateway-shards";
/**
 * The single shard of a small bot keeps the name of the unsharded connection it replaces: a deploy resumes its session.
 */
const SINGLE_SHARD_OBJECT_NAME = "gateway";
const SNAPSHOT_KEY = "snapshot";
const LAYOUT_KEY = "layout";
const TURN_PREFIX = "identify-turn:";
const RECENT_TURNS_KEY = "identify-turns";
/** Storage keys of messages whose ingest is to be tried again. */
const PENDING_PREFIX = "ingest:";
/** Storage keys of the bot's managed role, per guild. */
const BOT_ROLE_PREFIX = "bot-role:";
const ENSURE_PATH = "/ensure";
const STATUS_PATH = "/status";
const RETIRE_PATH = "/retire";
const TICK_PATH = "/tick";
const TURN_PATH = "/identify-turn";
const ORIGIN = "https://discord-gateway";

/** The Durable Object name of a shard. */
export function shardObjectName([id, count]: ShardTuple): string {
  return count === 1 ? SINGLE_SHARD_OBJECT_NAME : `gateway-shard-${id}-of-${count}`;
}

const count = z.coerce.number().check(z.int(), z.positive());
/** `/identify-turn?shard=1&concurrency=2`: the shard asking and its layout's number of buckets. */
const turnQuerySchema = z.object({
  shard: z.coerce.number().check(z.int(), z.gte(0)),
  concurrency: z._default(count, 1),
});
/** `/ensure?shard=1&count=4&concurrency=2`; without them (the object of an older deploy): an unsharded connection. */
const shardQuerySchema = z
  .extend(turnQuerySchema, { count })
  .check(z.refine((q) => q.shard < q.count, "the shard id must be below the count"));

const query = (url: URL) => Object.fromEntries(url.searchParams);

function shardParams(url: URL): { shard: ShardTuple; concurrency: number } | undefined {
  const parsed = shardQuerySchema.safeParse(query(url));
  return parsed.success
    ? { shard: [parsed.data.shard, parsed.data.count], concurrency: parsed.data.concurrency }
    : undefined;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One class, two roles by name: a shard's connection, or (as `gateway-shards`) the coordinator of all shards. */
export class DiscordGateway extends DurableObject<Record<string, unknown>> {
  #connection: GatewayConnection | null | undefined;

  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    switch (url.pathname) {
      case TICK_PATH:
        return Response.json(await this.#tick());
      case TURN_PATH:
        return Response.json(await this.#identifyTurn(url));
      case RETIRE_PATH:
        await this.#retire();
        return Response.json({ ok: true });
      case ENSURE_PATH:
      case STATUS_PATH: {
        const connection = this.#connectionFor(url);
        if (url.pathname === ENSURE_PATH && connection) await connection.start();
        const status: GatewayStatus | { phase: "disabled" } = connection?.status() ?? { phase: "disabled" };
        return Response.json(status);
      }
      default:
        return Response.json({ error: "not found" }, { status: 404 });
    }
  }

  /** Woken to try again the messages whose ingest failed (the object may have been evicted meanwhile). */
  override async alarm(): Promise<void> {
    await ingestRetries(this.env, this.#storage()).retryDue();
  }

  /** Ends the shard's session; an evicted object has no socket left, only the stored session to forget. */
  async #retire(): Promise<void> {
    if (this.#connection) await this.#connection.retire();
    else {
      const snapshot = await this.ctx.storage.get<GatewaySnapshot>(SNAPSHOT_KEY);
      if (snapshot) await this.ctx.storage.put(SNAPSHOT_KEY, { ...snapshot, session: null });
    }
    this.#connection = undefined;
  }

  #connectionFor(url: URL): GatewayConnection | null {
    if (this.#connection !== undefined) return this.#connection;
    const params = shardParams(url);
    const run = params && {
      shard: params.shard,
      identifyTurn: () => this.#waitForTurn(params.shard[0], params.concurrency),
    };
    this.#connection = createGatewayConnection(this.env, this.#storage(), run);
    return this.#connection;
  }

  async #waitForTurn(shardId: number, concurrency: number): Promise<void> {
    const response = await coordinator(this.env).fetch(
      `${ORIGIN}${TURN_PATH}?shard=${shardId}&concurrency=${concurrency}`,
      { method: "POST" },
    );
    const { waitMs } = (await response.json()) as { waitMs: number | null };
    if (waitMs === null) throw new Error("the bot's IDENTIFY budget for the last 24 hours is spent");
    if (waitMs > 0) await sleep(waitMs);
  }

  /** The coordinator's side of an IDENTIFY turn: the object runs one request's storage calls at a time. */
  async #identifyTurn(url: URL): Promise<{ waitMs: number | null }> {
    const storage = this.ctx.storage;
    const turns = new IdentifyTurns({
      last: (bucket) => storage.get<number>(`${TURN_PREFIX}${bucket}`),
      setLast: (bucket, at) => storage.put(`${TURN_PREFIX}${bucket}`, at),
      recent: async () => (await storage.get<number[]>(RECENT_TURNS_KEY)) ?? [],
      setRecent: (times) => storage.put(RECENT_TURNS_KEY, times),
    });
    const { shard, concurrency } = turnQuerySchema.parse(query(url));
    return { waitMs: await turns.reserve(shard, concurrency, Date.now()) };
  }

  async #tick(): Promise<ShardLayoutState | { phase: "disabled" }> {
    const storage = this.ctx.storage;
    const env = this.env;
    const shards: ShardDirectory = {
      async ensure(shard, concurrency) {
        const response = await shardStub(env, shard).fetch(
          `${ORIGIN}${ENSURE_PATH}?shard=${shard[0]}&count=${shard[1]}&concurrency=${concurrency}`,
          { method: "POST" },
        );
        const status = (await response.json()) as GatewayStatus | { phase: "disabled" };
        return "connection" in status ? status : null;
      },
      async retire(shard) {
        await (await shardStub(env, shard).fetch(`${ORIGIN}${RETIRE_PATH}`, { method: "POST" })).body?.cancel();
      },
    };
    const layout = createShardCoordinator(
      env,
      { load: () => storage.get<ShardLayoutState>(LAYOUT_KEY), save: (state) => storage.put(LAYOUT_KEY, state) },
      shards,
    );
    return layout ? layout.tick() : { phase: "disabled" };
  }

  #storage(): GatewayStorage {
    const storage = this.ctx.storage;
    return {
      snapshot: {
        get: () => storage.get<GatewaySnapshot>(SNAPSHOT_KEY),
        put: (snapshot) => storage.put(SNAPSHOT_KEY, snapshot),
      },
      pending: {
        all: async () => [...(await storage.list<PendingIngest>({ prefix: PENDING_PREFIX })).values()],
        put: (entry) => storage.put(`${PENDING_PREFIX}${entry.id}`, entry),
        delete: async (id) => void (await storage.delete(`${PENDING_PREFIX}${id}`)),
        wakeAt: (at) => storage.setAlarm(at),
      },
      botRoles: {
        get: (guildId) => storage.get<string>(`${BOT_ROLE_PREFIX}${guildId}`),
        set: (guildId, roleId) => storage.put(`${BOT_ROLE_PREFIX}${guildId}`, roleId),
        delete: async (guildId) => void (await storage.delete(`${BOT_ROLE_PREFIX}${guildId}`)),
      },
    };
  }
}

function namespaceOf(env: Record<string, unknown>): DurableObjectNamespace {
  return env[GATEWAY_BINDING] as DurableObjectNamespace;
}

function coordinator(env: Record<string, unknown>): DurableObjectStub {
  const namespace = namespaceOf(env);
  return namespace.get(namespace.idFromName(COORDINATOR_OBJECT_NAME));
}

function shardStub(env: Record<string, unknown>, shard: ShardTuple): DurableObjectStub {
  const namespace = namespaceOf(env);
  return namespace.get(namespace.idFromName(shardObjectName(shard)));
}

/** Ticks the shard coordinator (which starts or keeps every shard); does nothing without a bot token or the binding. */
export async function wakeDiscordGateway(env: Record<string, unknown>): Promise<void> {
  if (!env[GATEWAY_BINDING] || !gatewaySettings(runtimeFor(env))) return;
  const response = await coordinator(env).fetch(`${ORIGIN}${TICK_PATH}`, { method: "POST" });
  await response.body?.cancel();
}
