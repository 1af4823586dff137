/**
 * @module
 * One bot connection to the Gateway fake: HELLO, heartbeats and ACKs (some of which a test can drop), IDENTIFY
 * (4004 for a wrong token, 4013 for intents Discord does not define, 4014 for a privileged intent the app has not
 * enabled, 4010 for an impossible shard, 4011 when the shard would hold more guilds than allowed, op 9 when the
 * concurrency bucket is busy) → READY with the shard's guilds as unavailable, then a GUILD_CREATE for each (with
 * GUILDS); RESUME → replay of what was missed and RESUMED, or op 9 d:false for a session that is gone.
 */
import type { WebSocket } from "ws";
import { DISCORD_FAKE_BOT } from "../discord/messages.ts";
import { refusedIntents } from "./intents.ts";
import { OP, sendPayload, type Session, type Sessions } from "./sessions.ts";
import type { Guilds, ShardingSettings, ShardTuple } from "./sharding.ts";

const CLOSE = {
  DECODE_ERROR: 4002,
  AUTHENTICATION_FAILED: 4004,
  INVALID_SHARD: 4010,
  SHARDING_REQUIRED: 4011,
} as const;

export interface GatewayCounters {
  connections: number;
  identifies: number;
  resumes: number;
  heartbeats: number;
  /** IDENTIFYs refused with op 9 because their concurrency bucket was busy. */
  identifyRateLimited: number;
}

export interface ConnectionContext {
  heartbeatIntervalMs: number;
  token?: string;
  sessions: Sessions;
  guilds: Guilds;
  sharding(): ShardingSettings;
  counters: GatewayCounters;
  /** ACKs still to withhold (`POST /__drop_acks`). */
  takeDroppedAck(): boolean;
  resumeUrl(): string;
  newSessionId(): string;
  /** Closes the socket and keeps the code for `GET /__state`. */
  close(socket: WebSocket, code: number, reason: string, shard?: ShardTuple): void;
}

export function acceptConnection(socket: WebSocket, ctx: ConnectionContext): void {
  ctx.counters.connections += 1;
  const hello = () =>
    sendPayload(socket, { op: OP.HELLO, d: { heartbeat_interval: ctx.heartbeatIntervalMs }, s: null, t: null });
  const helloDelayMs = ctx.sharding().helloDelaysMs[ctx.counters.connections - 1] ?? 0;
  if (helloDelayMs > 0) setTimeout(hello, helloDelayMs);
  else hello();
  socket.on("message", (raw) => {
    let payload: { op?: number; d?: unknown };
    try {
      payload = JSON.parse(String(raw));
    } catch {
      return ctx.close(socket, CLOSE.DECODE_ERROR, "Error while decoding payload.");
    }
    const d = (typeof payload.d === "object" && payload.d ? payload.d : {}) as Record<string, unknown>;
    if (payload.op === OP.HEARTBEAT) {
      ctx.counters.heartbeats += 1;
      if (!ctx.takeDroppedAck()) sendPayload(socket, { op: OP.HEARTBEAT_ACK });
    } else if (payload.op === OP.IDENTIFY) {
      identify(socket, d, ctx);
    } else if (payload.op === OP.RESUME) {
      resume(socket, d, ctx);
    }
  });
  socket.on("close", (code) => ctx.sessions.socketClosed(socket, code));
}

function identify(socket: WebSocket, d: Record<string, unknown>, ctx: ConnectionContext): void {
  if (ctx.token && d.token !== ctx.token)
    return ctx.close(socket, CLOSE.AUTHENTICATION_FAILED, "Authentication failed.");
  const refused = refusedIntents(d.intents, ctx.sharding().enabledPrivilegedIntents);
  if (refused) return ctx.close(socket, refused.code, refused.reason);
  const shard = readShard(d.shard);
  if (!shard) return ctx.close(socket, CLOSE.INVALID_SHARD, "Invalid shard.");
  const guilds = ctx.guilds.ofShard(shard);
  if (guilds.length > ctx.sharding().threshold)
    return ctx.close(socket, CLOSE.SHARDING_REQUIRED, "Sharding required.", shard);
  if (!ctx.guilds.identify(shard, ctx.sharding())) {
    ctx.counters.identifyRateLimited += 1;
    return void sendPayload(socket, { op: OP.INVALID_SESSION, d: false });
  }
  ctx.counters.identifies += 1;
  const session = ctx.sessions.start(ctx.newSessionId(), shard, d.intents as number, socket);
  ctx.sessions.dispatch(session, "READY", {
    v: 10,
    user: { id: DISCORD_FAKE_BOT.userId, username: DISCORD_FAKE_BOT.username, bot: true },
    guilds: guilds.map((id) => ({ id, unavailable: true })),
    session_id: session.id,
    resume_gateway_url: ctx.resumeUrl(),
    application: { id: DISCORD_FAKE_BOT.applicationId, flags: 0 },
    ...(d.shard !== undefined ? { shard } : {}),
  });
  for (const id of guilds) ctx.sessions.dispatch(session, "GUILD_CREATE", guildObject(id));
}

function resume(socket: WebSocket, d: Record<string, unknown>, ctx: ConnectionContext): void {
  const session: Session | undefined = ctx.sessions.get(String(d.session_id));
  if (!session || (ctx.token && d.token !== ctx.token))
    return void sendPayload(socket, { op: OP.INVALID_SESSION, d: false });
  ctx.counters.resumes += 1;
  ctx.sessions.resume(session, socket);
  const from = Number(d.seq) || 0;
  for (const event of session.sent) if (event.s > from) sendPayload(socket, { op: OP.DISPATCH, ...event });
  ctx.sessions.dispatch(session, "RESUMED", null);
}

/** `[shard_id, num_shards]`; absent means one shard. Undefined for a shard Discord would refuse (4010). */
function readShard(value: unknown): ShardTuple | undefined {
  if (value === undefined) return [0, 1];
  if (!Array.isArray(value) || value.length !== 2 || !value.every((n) => Number.isInteger(n))) return undefined;
  const [id, count] = value as [number, number];
  return count >= 1 && id >= 0 && id < count ? [id, count] : undefined;
}

/**
 * A GUILD_CREATE's guild: its @everyone role (the guild's own id) and the bot's managed role (`tags.bot_id`), which
 * Discord makes for every bot it adds, with the id `botRoleId` gives it (by default derived from the guild's).
 */
export function guildObject(id: string, botRoleId = botRoleIdOf(id)): Record<string, unknown> {
  const role = (roleId: string, name: string, extra: object) => ({
    id: roleId,
    name,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position: 0,
    permissions: "0",
    managed: false,
    mentionable: false,
    flags: 0,
    ...extra,
  });
  return {
    id,
    name: `Guild ${id}`,
    unavailable: false,
    member_count: 2,
    joined_at: new Date().toISOString(),
    channels: [],
    threads: [],
    members: [],
    roles: [
      role(id, "@everyone", {}),
      role(botRoleId, DISCORD_FAKE_BOT.username, {
        managed: true,
        position: 1,
        tags: { bot_id: DISCORD_FAKE_BOT.userId },
      }),
    ],
  };
}

/** The bot's role id in a guild of the fake, unless a test names one: the guild's id + 1. */
function botRoleIdOf(guildId: string): string {
  return String(BigInt(guildId) + 1n);
}
