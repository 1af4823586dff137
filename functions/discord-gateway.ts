/**
 * @module
 * The Discord Gateway connection, kept by one Durable Object: every MESSAGE_CREATE goes through the same
 * `ingest` as the webhooks, and one whose ingest failed is tried again from the object's storage (its alarm wakes
 * it). Optional: without DISCORD_BOT_TOKEN nothing connects. The cron trigger calls `wakeDiscordGateway`, so the
 * connection comes back after the object was evicted or restarted.
 */
import { DurableObject } from "cloudflare:workers";
import { errorMessage } from "../lib/log.ts";
import { ingest } from "../lib/pipeline.ts";
import { GatewayConnection, openSocketWithFetch, type GatewayStatus } from "../lib/platforms/discord/gateway/connection.ts";
import { IngestRetries, type PendingIngest, type PendingStore } from "../lib/platforms/discord/gateway/ingest-retries.ts";
import { parseGatewayMessage } from "../lib/platforms/discord/gateway/message.ts";
import { parseGatewayReaction } from "../lib/platforms/discord/gateway/reaction.ts";
import { discord } from "../lib/platforms/discord/index.ts";
import type { GatewaySnapshot } from "../lib/platforms/discord/gateway/session.ts";
import { botIdentity, runtimeFor, type Runtime } from "../lib/runtime.ts";

/** The binding name in wrangler.toml. */
export const GATEWAY_BINDING = "DISCORD_GATEWAY";
/** One bot, one connection: every request goes to the object of this name. */
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
export function createGatewayConnection(env: object, storage: GatewayStorage): GatewayConnection | null {
  const rt = runtimeFor(env);
  const token = rt.settings.DISCORD_BOT_TOKEN;
  if (!token) return null;
  const retries = ingestRetries(env, storage.pending);
  return new GatewayConnection({
    token,
    gatewayUrl: rt.settings.DISCORD_GATEWAY_URL,
    load: () => storage.snapshot.get(),
    save: (snapshot) => storage.snapshot.put(snapshot),
    onDispatch: (event, data, botUserId) =>
      event === "MESSAGE_CREATE"
        ? retries.deliver(data, botUserId)
        : event === "MESSAGE_REACTION_ADD"
          ? ingestGatewayReaction(rt, data, botUserId)
          : Promise.resolve(),
    log: rt.log,
    openSocket: openSocketWithFetch,
  });
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

export class DiscordGateway extends DurableObject<Record<string, unknown>> {
  #connection: GatewayConnection | null | undefined;

  override async fetch(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (this.#connection === undefined) {
      const storage = this.ctx.storage;
      this.#connection = createGatewayConnection(this.env, {
        snapshot: { get: () => storage.get<GatewaySnapshot>(SNAPSHOT_KEY), put: (snapshot) => storage.put(SNAPSHOT_KEY, snapshot) },
        pending: this.#pending(),
      });
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

/** Starts (or keeps) the Gateway connection; does nothing without a bot token or the binding. */
export async function wakeDiscordGateway(env: Record<string, unknown>): Promise<void> {
  const namespace = env[GATEWAY_BINDING] as DurableObjectNamespace | undefined;
  if (!namespace || !runtimeFor(env).settings.DISCORD_BOT_TOKEN) return;
  const stub = namespace.get(namespace.idFromName(GATEWAY_OBJECT_NAME));
  const response = await stub.fetch(`https://discord-gateway${ENSURE_PATH}`, { method: "POST" });
  await response.body?.cancel();
}
