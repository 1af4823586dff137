/**
 * @module
 * Runs a GatewaySession over a real WebSocket: opens sockets, sends payloads, keeps the heartbeat timer, persists
 * the session snapshot, and hands dispatches on one at a time, in the order Discord sent them. Edge-safe (the
 * WebSocket and timers of the Workers runtime); the Durable Object and the tests drive it.
 */
import { errorMessage } from "../../../log.ts";
import { OPCODE, RESUMABLE_CLOSE_CODE } from "./protocol.ts";
import { GatewaySession } from "./session.ts";
import type { GatewayConnectionOptions } from "./connection-options.ts";
import type { GatewayAction } from "./session-io.ts";
import { listenToSocket, tokenFingerprint } from "./socket.ts";
import { type GatewayStatus, statusOf } from "./status.ts";

/** What a socket that could not be opened counts as: an abnormal closure. */
const ABNORMAL_CLOSURE = 1006;
/** Ends the session on Discord's side: it cannot be resumed. */
const NORMAL_CLOSURE = 1000;
/** Discord sends HELLO as soon as the socket opens; a URL that accepts the connection and then says nothing is dead. */
const HANDSHAKE_TIMEOUT_MS = 15_000;

export class GatewayConnection {
  #opts: GatewayConnectionOptions;
  #session: GatewaySession | undefined;
  #socket: WebSocket | undefined;
  #heartbeat: ReturnType<typeof setTimeout> | undefined;
  #pendingConnect: ReturnType<typeof setTimeout> | undefined;
  #handshakeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Dispatches and saves run on this chain so they never overtake each other. */
  #queue: Promise<void> = Promise.resolve();
  #lastSaved: string | undefined;

  constructor(opts: GatewayConnectionOptions) {
    this.#opts = opts;
  }

  /** Connects unless already connected or stopped for good. Safe to call often (the cron does). */
  async start(): Promise<void> {
    if (!this.#session) {
      const snapshot = await this.#opts.load();
      this.#session = new GatewaySession({
        token: this.#opts.token,
        tokenFingerprint: await tokenFingerprint(this.#opts.token),
        gatewayUrl: this.#opts.gatewayUrl,
        random: this.#opts.random ?? Math.random,
        ...(snapshot ? { snapshot } : {}),
        ...(this.#opts.shard ? { shard: this.#opts.shard } : {}),
      });
    }
    this.#apply(this.#session.handle({ type: "start", now: this.#now() }));
  }

  status(): GatewayStatus {
    return statusOf(this.#session);
  }

  /** Waits until every dispatch received so far has been handled. */
  idle(): Promise<void> {
    return this.#queue;
  }

  /** Closes the socket without ending the Discord session (it can be resumed). */
  shutdown(): void {
    this.#teardown(RESUMABLE_CLOSE_CODE, "shutdown");
  }

  /**
   * Ends the Discord session for good (1000: no resume), for a shard that a new layout replaced: the dispatches
   * received so far are handled, and the saved snapshot keeps only the IDENTIFY times (the budget is per bot).
   */
  async retire(): Promise<void> {
    const snapshot = this.#session?.snapshot;
    this.#teardown(NORMAL_CLOSURE, "resharded");
    if (snapshot) this.#enqueue(() => this.#opts.save({ ...snapshot, session: null }));
    await this.#queue;
  }

  #teardown(code: number, reason: string): void {
    clearTimeout(this.#heartbeat);
    clearTimeout(this.#pendingConnect);
    clearTimeout(this.#handshakeTimer);
    this.#socket?.close(code, reason);
    this.#socket = undefined;
    this.#session = undefined;
    this.#lastSaved = undefined;
  }

  /** Which shard a log line is about, when the connection runs one. */
  #shardField(): { shard?: string } {
    return this.#opts.shard ? { shard: `${this.#opts.shard[0]}/${this.#opts.shard[1]}` } : {};
  }

  #now(): number {
    return (this.#opts.now ?? Date.now)();
  }

  #apply(actions: GatewayAction[]): void {
    const session = this.#session;
    if (!session) return;
    for (const action of actions) {
      switch (action.type) {
        case "connect":
          this.#opts.log.info("discord_gateway_connecting", {
            connection: action.connection,
            mode: action.mode,
            delay_ms: action.delayMs,
            ...this.#shardField(),
          });
          clearTimeout(this.#heartbeat);
          clearTimeout(this.#pendingConnect);
          this.#pendingConnect = setTimeout(() => void this.#open(action.connection, action.url), action.delayMs);
          break;
        case "send":
          if (action.payload.op === OPCODE.IDENTIFY && this.#opts.identifyTurn) void this.#identifyOnTurn(action);
          else if (action.connection === session.connection) this.#socket?.send(JSON.stringify(action.payload));
          break;
        case "schedule_heartbeat":
          clearTimeout(this.#heartbeat);
          this.#heartbeat = setTimeout(
            () => this.#apply(session.handle({ type: "heartbeat_due", connection: action.connection })),
            action.delayMs,
          );
          break;
        case "close":
          this.#opts.log.info("discord_gateway_closing", {
            connection: action.connection,
            code: action.code,
            reason: action.reason,
          });
          clearTimeout(this.#heartbeat);
          this.#socket?.close(action.code, action.reason);
          this.#socket = undefined;
          break;
        case "dispatch":
          this.#enqueue(() => this.#dispatch(action.event, action.data));
          break;
        case "stopped":
          clearTimeout(this.#heartbeat);
          this.#opts.log.error("discord_gateway_stopped", {
            reason: action.reason,
            close_code: action.closeCode,
            ...this.#shardField(),
          });
          break;
      }
    }
    // Heartbeats and ACKs change nothing worth a storage write.
    const snapshot = session.snapshot;
    const serialized = JSON.stringify(snapshot);
    if (serialized === this.#lastSaved) return;
    this.#lastSaved = serialized;
    this.#enqueue(() => this.#opts.save(snapshot));
  }

  #enqueue(task: () => Promise<void>): void {
    this.#queue = this.#queue
      .then(task)
      .catch((err: unknown) => this.#opts.log.error("discord_gateway_task_failed", { message: errorMessage(err) }));
  }

  async #dispatch(event: string, data: unknown): Promise<void> {
    const botUserId = this.#session?.snapshot.session?.botUserId;
    if (event === "READY" || event === "RESUMED") {
      // `dispatch`, not `event`: that field is the log line's own name.
      this.#opts.log.info("discord_gateway_ready", {
        dispatch: event,
        connection: this.#session?.connection ?? 0,
        ...this.#shardField(),
      });
      return;
    }
    if (botUserId) await this.#opts.onDispatch(event, data, botUserId);
  }

  /**
   * IDENTIFY waits for its turn after HELLO, not before the connect: how long a socket takes to open and say HELLO
   * differs from shard to shard (by over a second on a loaded host), so turns taken before it would not space the
   * IDENTIFYs Discord counts. No turn (the daily budget): the connect counts as failed and is tried again later.
   */
  async #identifyOnTurn(action: { connection: number; payload: unknown }): Promise<void> {
    const session = this.#session;
    const current = () => this.#session === session && action.connection === session?.connection;
    try {
      await this.#opts.identifyTurn?.();
      if (current()) this.#socket?.send(JSON.stringify(action.payload));
    } catch (err) {
      if (!session || !current()) return;
      this.#socket?.close(RESUMABLE_CLOSE_CODE, "no_identify_turn");
      this.#socket = undefined;
      this.#connectFailed(session, action.connection, errorMessage(err));
    }
  }

  /** A connect that got no further than HELLO counts as an abnormal closure: tried again after a backoff. */
  #connectFailed(session: GatewaySession, connection: number, message: string): void {
    clearTimeout(this.#handshakeTimer);
    this.#opts.log.warn("discord_gateway_connect_failed", { connection, message });
    this.#apply(session.handle({ type: "closed", connection, code: ABNORMAL_CLOSURE, now: this.#now() }));
  }

  async #open(connection: number, url: string): Promise<void> {
    const session = this.#session;
    if (!session || connection !== session.connection) return;
    const failed = (message: string) => this.#connectFailed(session, connection, message);
    // A URL that takes the connection and never answers would otherwise hold the session forever.
    clearTimeout(this.#handshakeTimer);
    this.#handshakeTimer = setTimeout(() => {
      if (this.#session !== session || connection !== session.connection) return;
      this.#socket?.close(RESUMABLE_CLOSE_CODE, "handshake_timeout");
      this.#socket = undefined;
      failed("no HELLO in time");
    }, this.#opts.handshakeTimeoutMs ?? HANDSHAKE_TIMEOUT_MS);
    let socket: WebSocket;
    try {
      socket = await (this.#opts.openSocket ?? (async (u: string) => new WebSocket(u)))(url);
    } catch (err) {
      if (this.#session === session && connection === session.connection) failed(errorMessage(err));
      return;
    }
    if (this.#session !== session || connection !== session.connection)
      return void socket.close(RESUMABLE_CLOSE_CODE, "superseded");
    this.#socket = socket;
    listenToSocket(socket, {
      opened: () => this.#apply(session.handle({ type: "open", connection })),
      heard: () => clearTimeout(this.#handshakeTimer),
      received: (payload) => this.#apply(session.handle({ type: "payload", connection, payload, now: this.#now() })),
      unreadable: () => this.#opts.log.warn("discord_gateway_bad_payload", { connection }),
      closed: (code) => {
        if (this.#socket === socket) this.#socket = undefined;
        this.#opts.log.info("discord_gateway_closed", { connection, code });
        this.#apply(session.handle({ type: "closed", connection, code, now: this.#now() }));
      },
      errored: () => this.#opts.log.warn("discord_gateway_socket_error", { connection }),
    });
  }
}
