/**
 * @module
 * A Discord Gateway stand-in (API v10, JSON) for tests and `npm run dev`: HELLO, IDENTIFY → READY (4004 for a
 * wrong token, 4013 without the message intents), heartbeats and ACKs, RESUME with replay of what was missed →
 * RESUMED (INVALID_SESSION when the session is unknown). Control routes on the same port drive it:
 * `POST /__message` (a MESSAGE_CREATE), `/__reconnect` (op 7), `/__invalid_session {resumable}` (op 9),
 * `/__drop_acks {count}`, `/__close {code}`, `GET /__state`. Messages sent while the bot is away are kept for its
 * RESUME, as Discord does. Standalone: `node dev/fakes/discord-gateway.ts` (DISCORD_GATEWAY_FAKE_PORT, 8094).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { WebSocketServer, type WebSocket } from "ws";
import { DISCORD_FAKE_BOT } from "./discord.ts";
import { readBody, sendJson } from "./http.ts";
import { serveStandalone } from "../serve-standalone.ts";

export const DEFAULT_DISCORD_GATEWAY_FAKE_PORT = 8094;
const OP = { DISPATCH: 0, HEARTBEAT: 1, IDENTIFY: 2, RESUME: 6, RECONNECT: 7, INVALID_SESSION: 9, HELLO: 10, HEARTBEAT_ACK: 11 } as const;
const MESSAGE_INTENTS = (1 << 9) | (1 << 15);
const CLOSE = { AUTHENTICATION_FAILED: 4004, INVALID_INTENTS: 4013 } as const;
const DISCORD_EPOCH_MS = 1_420_070_400_000n;

export interface DiscordGatewayFakeOptions {
  port: number;
  host?: string;
  /** Discord sends about 41 s; tests use a short one so zombie detection takes a second, not a minute. */
  heartbeatIntervalMs?: number;
  /** When set, IDENTIFY and RESUME with another token are refused (4004). */
  token?: string;
}

export interface GatewayFakeState {
  connections: number;
  identifies: number;
  resumes: number;
  heartbeats: number;
  connected: boolean;
  sessionId: string | null;
  seq: number;
}

export interface RunningDiscordGatewayFake {
  /** For DISCORD_GATEWAY_URL, e.g. ws://127.0.0.1:8093 */
  url: string;
  /** The control routes' origin, e.g. http://127.0.0.1:8093 */
  controlUrl: string;
  /** Dispatches a MESSAGE_CREATE (e.g. the bot's own post, echoed by the REST fake). */
  dispatchMessage(message: object): string;
  close(): Promise<void>;
}

interface Session {
  id: string;
  seq: number;
  /** Every dispatch with its sequence number, for replay on RESUME. */
  sent: { s: number; t: string; d: unknown }[];
  socket: WebSocket | undefined;
}

export async function startDiscordGatewayFake(opts: DiscordGatewayFakeOptions): Promise<RunningDiscordGatewayFake> {
  const host = opts.host ?? "127.0.0.1";
  const heartbeatIntervalMs = opts.heartbeatIntervalMs ?? 41_250;
  const counters = { connections: 0, identifies: 0, resumes: 0, heartbeats: 0 };
  const sessions = new Map<string, Session>();
  const guildOfChannel = new Map<string, string>();
  let current: Session | undefined;
  let dropAcks = 0;
  let nextId = 0n;
  const snowflake = () => String(((BigInt(Date.now()) - DISCORD_EPOCH_MS) << 22n) | (nextId++ % 4096n));

  const send = (socket: WebSocket | undefined, payload: unknown) => socket?.readyState === 1 && socket.send(JSON.stringify(payload));
  const dispatch = (session: Session, t: string, d: unknown) => {
    const event = { s: ++session.seq, t, d };
    session.sent.push(event);
    send(session.socket, { op: OP.DISPATCH, ...event });
  };

  /** Returns the message's id. */
  function dispatchMessage(posted: object): string {
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
    if (current) dispatch(current, "MESSAGE_CREATE", full);
    return String(full.id);
  }

  function onConnection(socket: WebSocket): void {
    counters.connections += 1;
    send(socket, { op: OP.HELLO, d: { heartbeat_interval: heartbeatIntervalMs }, s: null, t: null });
    socket.on("message", (raw) => {
      let payload: { op?: number; d?: Record<string, unknown> | number | null };
      try {
        payload = JSON.parse(String(raw));
      } catch {
        return socket.close(4002, "Error while decoding payload.");
      }
      const d = (typeof payload.d === "object" && payload.d) || {};
      switch (payload.op) {
        case OP.HEARTBEAT:
          counters.heartbeats += 1;
          if (dropAcks > 0) dropAcks -= 1;
          else send(socket, { op: OP.HEARTBEAT_ACK });
          return;
        case OP.IDENTIFY: {
          if (opts.token && d.token !== opts.token) return socket.close(CLOSE.AUTHENTICATION_FAILED, "Authentication failed.");
          if (((Number(d.intents) || 0) & MESSAGE_INTENTS) !== MESSAGE_INTENTS) return socket.close(CLOSE.INVALID_INTENTS, "Invalid intent(s).");
          counters.identifies += 1;
          const session: Session = { id: `fake-session-${snowflake()}`, seq: 0, sent: [], socket };
          sessions.set(session.id, session);
          current = session;
          dispatch(session, "READY", {
            v: 10,
            user: { id: DISCORD_FAKE_BOT.userId, username: DISCORD_FAKE_BOT.username, bot: true },
            guilds: [],
            session_id: session.id,
            resume_gateway_url: `ws://${host}:${port}/resume`,
            application: { id: DISCORD_FAKE_BOT.applicationId, flags: 0 },
          });
          return;
        }
        case OP.RESUME: {
          const session = sessions.get(String(d.session_id));
          if (!session || (opts.token && d.token !== opts.token)) return send(socket, { op: OP.INVALID_SESSION, d: false });
          counters.resumes += 1;
          session.socket?.close(4000, "resumed elsewhere");
          session.socket = socket;
          current = session;
          const from = Number(d.seq) || 0;
          for (const event of session.sent) if (event.s > from) send(socket, { op: OP.DISPATCH, ...event });
          dispatch(session, "RESUMED", null);
          return;
        }
      }
    });
    socket.on("close", () => {
      for (const session of sessions.values()) if (session.socket === socket) session.socket = undefined;
    });
  }

  async function control(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const body = req.method === "POST" ? (JSON.parse((await readBody(req)) || "{}") as Record<string, unknown>) : {};
    const socket = current?.socket;
    switch (`${req.method} ${path}`) {
      case "POST /__message":
        return sendJson(res, 200, { ok: true, id: dispatchMessage(body), seq: current?.seq ?? 0 });
      case "POST /__reconnect":
        send(socket, { op: OP.RECONNECT, d: null });
        return sendJson(res, 200, { ok: Boolean(socket) });
      case "POST /__invalid_session":
        send(socket, { op: OP.INVALID_SESSION, d: body.resumable === true });
        return sendJson(res, 200, { ok: Boolean(socket) });
      case "POST /__drop_acks":
        dropAcks = Number(body.count ?? 1);
        return sendJson(res, 200, { ok: true });
      case "POST /__close":
        socket?.close(Number(body.code ?? 4000), "closed by test");
        return sendJson(res, 200, { ok: Boolean(socket) });
      case "GET /__state":
        return sendJson(res, 200, {
          ...counters,
          connected: socket?.readyState === 1,
          sessionId: current?.id ?? null,
          seq: current?.seq ?? 0,
        } satisfies GatewayFakeState);
      default:
        return sendJson(res, 404, { error: "not_found" });
    }
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", `http://${host}`).pathname;
    control(req, res, path).catch((err: unknown) => sendJson(res, 500, { error: err instanceof Error ? err.message : String(err) }));
  });
  const wss = new WebSocketServer({ server });
  wss.on("connection", onConnection);
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, host, () => {
      const address = server.address();
      resolve(address && typeof address === "object" ? address.port : opts.port);
    });
  });
  return {
    url: `ws://${host}:${port}`,
    controlUrl: `http://${host}:${port}`,
    dispatchMessage,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((done) => wss.close(() => done()));
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

if (import.meta.main) {
  serveStandalone("discord_gateway_fake", () => startDiscordGatewayFake({ port: Number(process.env.DISCORD_GATEWAY_FAKE_PORT ?? DEFAULT_DISCORD_GATEWAY_FAKE_PORT) }));
}
