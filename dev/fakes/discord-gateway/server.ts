/**
 * @module
 * The Discord Gateway fake (API v10, JSON): a websocket server whose connections speak the Gateway protocol
 * (./connection.ts), with sharded sessions (./sessions.ts, ./sharding.ts), a resume URL that a test can make dead
 * while the configured URL keeps working, and control routes on the same port (./control.ts). Messages sent while
 * the bot is away are kept for its RESUME, as Discord does.
 */
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { nextSnowflake } from "../discord/ids.ts";
import type { PostedChannelMessage } from "../discord/messages.ts";
import { startHttpServer } from "../http.ts";
import { createFakeControl } from "../control.ts";
import { acceptConnection, type GatewayCounters } from "./connection.ts";
import { gatewayControlRoutes, type ClosedByFake } from "./control.ts";
import { Sessions } from "./sessions.ts";
import { DEFAULT_SHARDING, Guilds, type ShardingSettings } from "./sharding.ts";

const RESUME_PATH = "/resume";

export interface DiscordGatewayFakeOptions {
  port: number;
  host?: string;
  /** Discord sends about 41 s; tests use a short one so zombie detection takes a second, not a minute. */
  heartbeatIntervalMs?: number;
  /** When set, IDENTIFY and RESUME with another token are refused (4004). */
  token?: string;
  sharding?: Partial<ShardingSettings>;
}

export interface RunningDiscordGatewayFake {
  /** For DISCORD_GATEWAY_URL, e.g. ws://127.0.0.1:8094 */
  url: string;
  /** The control routes' origin, e.g. http://127.0.0.1:8094 */
  controlUrl: string;
  /**
   * Dispatches a MESSAGE_CREATE to the guild's shard (e.g. the bot's own post, echoed by the REST fake); returns its
   * id.
   */
  dispatchMessage(message: object): string;
  /** Hears each message written through `POST /__message`, as Discord would then keep it (the REST fake's list). */
  onWritten(listener: (message: PostedChannelMessage) => void): void;
  close(): Promise<void>;
}

export async function startDiscordGatewayFake(opts: DiscordGatewayFakeOptions): Promise<RunningDiscordGatewayFake> {
  const host = opts.host ?? "127.0.0.1";
  const initialSharding: ShardingSettings = { ...DEFAULT_SHARDING, ...opts.sharding };
  let sharding = initialSharding;
  const counters: GatewayCounters = {
    connections: 0,
    identifies: 0,
    resumes: 0,
    heartbeats: 0,
    identifyRateLimited: 0,
  };
  const closes: ClosedByFake[] = [];
  const guilds = new Guilds();
  const guildOfChannel = new Map<string, string>();
  const hanging = new Set<Duplex>();
  let dropAcks = 0;
  let resumeUrl = { dead: false, mode: "refuse" as "refuse" | "hang" };
  const snowflake = nextSnowflake;
  const control = createFakeControl({
    name: "discord-gateway",
    kinds: ["drop_after"],
    refuse: () => undefined,
    onReset() {
      sharding = initialSharding;
      for (const session of sessions.owners()) session.socket?.close(4000, "reset");
      sessions.reset();
      guilds.reset();
      guildOfChannel.clear();
      closes.length = 0;
      dropAcks = 0;
      resumeUrl = { dead: false, mode: "refuse" };
      Object.assign(counters, { connections: 0, identifies: 0, resumes: 0, heartbeats: 0, identifyRateLimited: 0 });
    },
  });
  const sessions = new Sessions((session, event) => {
    const guildId = (event.d as { guild_id?: unknown } | null)?.guild_id;
    return (
      control.takeFault({
        route: "dispatch",
        t: event.t,
        shard: session.shard[0],
        ...(typeof guildId === "string" ? { guild_id: guildId } : {}),
      })?.fault === "drop_after"
    );
  });

  let written: ((message: PostedChannelMessage) => void) | undefined;
  /** A message someone wrote (the control route): dispatched, then kept where the REST fake lists it. */
  function dispatchWritten(posted: object): string {
    const full = dispatched(posted);
    written?.(full as unknown as PostedChannelMessage);
    return String(full.id);
  }

  function dispatchMessage(posted: object): string {
    return String(dispatched(posted).id);
  }

  function dispatched(posted: object): Record<string, unknown> {
    const message = posted as Record<string, unknown>;
    const channelId = String(message.channel_id);
    if (typeof message.guild_id === "string") guildOfChannel.set(channelId, message.guild_id);
    const guildId = guildOfChannel.get(channelId);
    const full = {
      id: snowflake(),
      type: 0,
      timestamp: new Date().toISOString(),
      mentions: [],
      attachments: [],
      embeds: [],
      tts: false,
      mention_everyone: false,
      pinned: false,
      ...(guildId ? { guild_id: guildId } : {}),
      ...message,
    };
    sessions.dispatchToGuild(guildId, "MESSAGE_CREATE", full);
    return full;
  }

  const wss = new WebSocketServer({ noServer: true });
  const server = await startHttpServer({
    port: opts.port,
    host,
    async handle(req, res, url) {
      if (!(await control.handle(req, res, url))) res.writeHead(404).end();
    },
    upgrade(req, socket, head) {
      const path = new URL(req.url ?? "/", "http://gateway").pathname;
      if (path === RESUME_PATH && resumeUrl.dead) {
        if (resumeUrl.mode === "hang") return void hanging.add(socket);
        return void socket.destroy();
      }
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
    },
  });
  const origin = server.origin;
  const context = {
    heartbeatIntervalMs: opts.heartbeatIntervalMs ?? 41_250,
    ...(opts.token ? { token: opts.token } : {}),
    sessions,
    guilds,
    sharding: () => sharding,
    counters,
    takeDroppedAck: () => {
      if (dropAcks <= 0) return false;
      dropAcks -= 1;
      return true;
    },
    resumeUrl: () => `${origin.replace(/^http:/, "ws:")}${RESUME_PATH}`,
    newSessionId: () => `fake-session-${snowflake()}`,
    close(socket: WebSocket, code: number, reason: string, shard?: [number, number]) {
      closes.push({ at: Date.now(), code, reason, ...(shard ? { shard } : {}) });
      socket.close(code, reason);
    },
  };
  control.addRoutes(
    gatewayControlRoutes({
      sessions,
      guilds,
      counters,
      closes,
      sharding: () => sharding,
      updateSharding: (patch) => {
        sharding = { ...sharding, ...patch };
        return sharding;
      },
      dispatchMessage: dispatchWritten,
      setDropAcks: (count) => {
        dropAcks = count;
      },
      setResumeUrl: (state) => {
        resumeUrl = state;
      },
    }),
  );
  wss.on("connection", (socket: WebSocket) => acceptConnection(socket, context));
  return {
    url: origin.replace(/^http:/, "ws:"),
    controlUrl: origin,
    dispatchMessage,
    onWritten: (listener) => {
      written = listener;
    },
    close: async () => {
      for (const client of wss.clients) client.terminate();
      for (const socket of hanging) socket.destroy();
      await new Promise<void>((done) => wss.close(() => done()));
      await server.close();
    },
  };
}
