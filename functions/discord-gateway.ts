/**
 * @module
 * The Discord Gateway connection, kept by one Durable Object: every MESSAGE_CREATE goes through the same
 * `ingest` as the webhooks. Optional: without DISCORD_BOT_TOKEN nothing connects. The cron trigger calls
 * `wakeDiscordGateway`, so the connection comes back after the object was evicted or restarted.
 */
import { DurableObject } from "cloudflare:workers";
import { errorMessage } from "../lib/log.ts";
import { ingest } from "../lib/pipeline.ts";
import { GatewayConnection, openSocketWithFetch, type GatewayStatus } from "../lib/platforms/discord/gateway/connection.ts";
import { parseGatewayMessage } from "../lib/platforms/discord/gateway/message.ts";
import { discord } from "../lib/platforms/discord/index.ts";
import type { GatewaySnapshot } from "../lib/platforms/discord/gateway/session.ts";
import { botIdentity, runtimeFor, type Runtime } from "../lib/runtime.ts";

/** The binding name in wrangler.toml. */
export const GATEWAY_BINDING = "DISCORD_GATEWAY";
/** One bot, one connection: every request goes to the object of this name. */
const GATEWAY_OBJECT_NAME = "gateway";
const SNAPSHOT_KEY = "snapshot";
const ENSURE_PATH = "/ensure";
const STATUS_PATH = "/status";

export interface SnapshotStore {
  get(): Promise<GatewaySnapshot | undefined>;
  put(snapshot: GatewaySnapshot): Promise<void>;
}

/** A Gateway connection whose messages feed the pipeline; null when Discord's bot token is not set. */
export function createGatewayConnection(env: object, store: SnapshotStore): GatewayConnection | null {
  const rt = runtimeFor(env);
  const token = rt.settings.DISCORD_BOT_TOKEN;
  if (!token) return null;
  return new GatewayConnection({
    token,
    gatewayUrl: rt.settings.DISCORD_GATEWAY_URL,
    load: () => store.get(),
    save: (snapshot) => store.put(snapshot),
    onDispatch: (event, data, botUserId) => (event === "MESSAGE_CREATE" ? ingestGatewayMessage(rt, data, botUserId) : Promise.resolve()),
    log: rt.log,
    openSocket: openSocketWithFetch,
  });
}

async function ingestGatewayMessage(rt: Runtime, data: unknown, botUserId: string): Promise<void> {
  const bot = botIdentity(rt, botUserId);
  const parsed = parseGatewayMessage(data, bot);
  if (parsed.kind === "invalid") return rt.log.warn("discord_invalid", { source: "gateway", issues: parsed.issues });
  if (parsed.kind === "ignored") return rt.log.info("discord_ignored", { source: "gateway", reason: parsed.reason });
  try {
    await ingest(rt, parsed.message, bot, discord.ingestOptions(rt.settings));
  } catch (err) {
    // The Gateway does not redeliver: this message is lost to the conversation. Say so, loudly.
    rt.log.error("discord_ingest_failed", { channel: parsed.message.key.channel, message: parsed.message.id, error: errorMessage(err) });
  }
}

export class DiscordGateway extends DurableObject<Record<string, unknown>> {
  #connection: GatewayConnection | null | undefined;

  override async fetch(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (this.#connection === undefined) {
      const storage = this.ctx.storage;
      this.#connection = createGatewayConnection(this.env, {
        get: () => storage.get<GatewaySnapshot>(SNAPSHOT_KEY),
        put: (snapshot) => storage.put(SNAPSHOT_KEY, snapshot),
      });
    }
    if (path === ENSURE_PATH && this.#connection) await this.#connection.start();
    const status: GatewayStatus | { phase: "disabled" } = this.#connection?.status() ?? { phase: "disabled" };
    if (path === ENSURE_PATH || path === STATUS_PATH) return Response.json(status);
    return Response.json({ error: "not found" }, { status: 404 });
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
