/**
 * @module
 * The Gateway client as a pure state machine: events in (socket opened, payload received, heartbeat due, socket
 * closed), actions out (connect, send, schedule the next heartbeat, close, dispatch an event, stop). No timers,
 * sockets or clocks of its own, so every protocol path is testable: HELLO → IDENTIFY or RESUME, heartbeats with
 * jitter, zombie connections, RECONNECT, INVALID_SESSION, fatal close codes, resumes that keep failing and the
 * daily IDENTIFY budget.
 */
import type { GatewaySendPayload } from "discord-api-types/v10";
import { identifyPayload, resumePayload } from "./handshake.ts";
import {
  FATAL_CLOSE_CODES,
  type GatewayPayload,
  gatewayUrl,
  helloSchema,
  IDENTIFY_BUDGET,
  IDENTIFY_WINDOW_MS,
  INTENTS,
  OPCODE,
  RESUMABLE_CLOSE_CODE,
  readySchema,
  SESSION_ENDING_CLOSE_CODES,
} from "./protocol.ts";
import { backoffMs, FATAL_RETRY_AFTER_MS, invalidSessionWaitMs, MAX_FAILED_RESUMES } from "./reconnect-delays.ts";
import type { GatewayAction, GatewayInput, GatewaySnapshot, ShardTuple } from "./session-io.ts";

export interface GatewaySessionOptions {
  token: string;
  /** A non-secret digest of the token: a fatal stop holds only for the token that caused it. */
  tokenFingerprint: string;
  gatewayUrl: string;
  /** In [0, 1): heartbeat jitter and reconnect backoff. */
  random: () => number;
  snapshot?: GatewaySnapshot;
  /** `[shard_id, num_shards]` named in IDENTIFY; absent for a bot that runs unsharded. */
  shard?: ShardTuple;
}

type Phase = "idle" | "connecting" | "handshake" | "ready" | "stopped";

const NORMAL_CLOSE = 1000;

export class GatewaySession {
  #opts: GatewaySessionOptions;
  #phase: Phase = "idle";
  #connection = 0;
  #mode: "identify" | "resume" = "identify";
  #heartbeatMs = 0;
  #awaitingAck = false;
  #failures = 0;
  #failedResumes = 0;
  #snapshot: GatewaySnapshot;

  constructor(opts: GatewaySessionOptions) {
    this.#opts = opts;
    this.#snapshot = structuredClone(opts.snapshot ?? { session: null, identifies: [] });
    // A session keeps the intents it was identified with: one from before a change of INTENTS identifies anew.
    if (this.#snapshot.session?.intents !== INTENTS) this.#snapshot.session = null;
  }

  get snapshot(): GatewaySnapshot {
    return structuredClone(this.#snapshot);
  }
  get phase(): Phase {
    return this.#phase;
  }
  get connection(): number {
    return this.#connection;
  }

  handle(input: GatewayInput): GatewayAction[] {
    if (input.type === "start") return this.#start(input.now);
    if (input.connection !== this.#connection || this.#phase === "stopped") return []; // a socket we already left
    switch (input.type) {
      case "open":
        this.#phase = "handshake";
        return [];
      case "payload":
        return this.#payload(input.payload, input.now);
      case "heartbeat_due":
        return this.#heartbeatDue();
      case "closed":
        return this.#closed(input.code, input.now);
    }
  }

  #start(now: number): GatewayAction[] {
    const fatal = this.#snapshot.fatal;
    if (fatal && fatal.tokenFingerprint === this.#opts.tokenFingerprint && now - fatal.at < FATAL_RETRY_AFTER_MS) {
      return [{ type: "stopped", reason: "fatal_close", closeCode: fatal.closeCode }];
    }
    delete this.#snapshot.fatal;
    if (this.#phase !== "idle" && this.#phase !== "stopped") return [];
    if (!this.#snapshot.session && this.#identifiesSince(now).length >= IDENTIFY_BUDGET)
      return [{ type: "stopped", reason: "identify_budget" }];
    return this.#connect(0);
  }

  #identifiesSince(now: number): number[] {
    return this.#snapshot.identifies.filter((t) => t > now - IDENTIFY_WINDOW_MS);
  }

  #connect(delayMs: number): GatewayAction[] {
    const session = this.#snapshot.session;
    this.#mode = session ? "resume" : "identify";
    this.#connection += 1;
    this.#phase = "connecting";
    this.#awaitingAck = false;
    const base = session ? session.resumeUrl : this.#opts.gatewayUrl;
    return [{ type: "connect", connection: this.#connection, url: gatewayUrl(base), delayMs, mode: this.#mode }];
  }

  /** Leaves the current socket on purpose and opens the next one. */
  #reconnect(code: number, reason: string, delayMs: number): GatewayAction[] {
    return [{ type: "close", connection: this.#connection, code, reason }, ...this.#connect(delayMs)];
  }

  /**
   * Discord asked for a new connection that resumes (op 7, op 9 d=true): after a backoff like any failed connect,
   * and counted as a failed resume when it came before this connection's resume got through.
   */
  #resumeAgain(reason: string): GatewayAction[] {
    this.#countFailedResume();
    return this.#reconnect(RESUMABLE_CLOSE_CODE, reason, this.#backoffMs());
  }

  #countFailedResume(): void {
    if (this.#mode === "resume" && this.#phase !== "ready") this.#failedResumes += 1;
    if (this.#failedResumes < MAX_FAILED_RESUMES) return;
    this.#failedResumes = 0;
    this.#snapshot.session = null;
  }

  #backoffMs(): number {
    this.#failures += 1;
    return backoffMs(this.#failures, this.#opts.random);
  }

  #payload(payload: GatewayPayload, now: number): GatewayAction[] {
    switch (payload.op) {
      case OPCODE.HELLO:
        return this.#hello(payload, now);
      case OPCODE.HEARTBEAT:
        return [this.#beat()];
      case OPCODE.HEARTBEAT_ACK:
        this.#awaitingAck = false;
        return [];
      case OPCODE.DISPATCH:
        return this.#dispatch(payload);
      case OPCODE.RECONNECT:
        return this.#resumeAgain("reconnect_requested");
      case OPCODE.INVALID_SESSION:
        if (payload.d === true && this.#snapshot.session) return this.#resumeAgain("invalid_session_resumable");
        this.#snapshot.session = null;
        return this.#reconnect(NORMAL_CLOSE, "invalid_session", invalidSessionWaitMs(this.#opts.random));
      default:
        return [];
    }
  }

  #hello(payload: GatewayPayload, now: number): GatewayAction[] {
    const hello = helloSchema.safeParse(payload.d);
    if (!hello.success) return this.#reconnect(RESUMABLE_CLOSE_CODE, "bad_hello", this.#backoffMs());
    this.#heartbeatMs = hello.data.heartbeat_interval;
    // The first beat after interval × jitter, so that many clients restarting together do not beat in step.
    const first: GatewayAction = {
      type: "schedule_heartbeat",
      connection: this.#connection,
      delayMs: Math.round(this.#heartbeatMs * this.#opts.random()),
    };
    const session = this.#snapshot.session;
    if (this.#mode === "resume" && session) return [first, this.#send(resumePayload(this.#opts.token, session))];
    const recent = this.#identifiesSince(now);
    if (recent.length >= IDENTIFY_BUDGET) {
      this.#phase = "stopped";
      return [
        { type: "close", connection: this.#connection, code: NORMAL_CLOSE, reason: "identify_budget" },
        { type: "stopped", reason: "identify_budget" },
      ];
    }
    this.#snapshot.identifies = [...recent, now];
    return [first, this.#send(identifyPayload(this.#opts.token, this.#opts.shard))];
  }

  #dispatch(payload: GatewayPayload): GatewayAction[] {
    const session = this.#snapshot.session;
    if (typeof payload.s === "number" && session) session.seq = payload.s;
    if (payload.t === "READY") {
      const ready = readySchema.safeParse(payload.d);
      if (!ready.success) return this.#reconnect(RESUMABLE_CLOSE_CODE, "bad_ready", this.#backoffMs());
      this.#snapshot.session = {
        sessionId: ready.data.session_id,
        resumeUrl: ready.data.resume_gateway_url,
        seq: payload.s ?? null,
        botUserId: ready.data.user.id,
        intents: INTENTS,
      };
    }
    if (payload.t === "READY" || payload.t === "RESUMED") {
      this.#phase = "ready";
      this.#failures = 0;
      this.#failedResumes = 0;
    }
    return payload.t ? [{ type: "dispatch", event: payload.t, data: payload.d }] : [];
  }

  #heartbeatDue(): GatewayAction[] {
    if (this.#phase !== "handshake" && this.#phase !== "ready") return [];
    // No ACK since the last beat: the connection is a zombie. Leave it and resume on a new one.
    if (this.#awaitingAck) return this.#reconnect(RESUMABLE_CLOSE_CODE, "zombie_connection", 0);
    return [this.#beat(), { type: "schedule_heartbeat", connection: this.#connection, delayMs: this.#heartbeatMs }];
  }

  #beat(): GatewayAction {
    this.#awaitingAck = true;
    return this.#send({ op: OPCODE.HEARTBEAT, d: this.#snapshot.session?.seq ?? null });
  }

  #closed(code: number, now: number): GatewayAction[] {
    if (FATAL_CLOSE_CODES.has(code)) {
      this.#phase = "stopped";
      this.#snapshot.fatal = { closeCode: code, at: now, tokenFingerprint: this.#opts.tokenFingerprint };
      return [{ type: "stopped", reason: "fatal_close", closeCode: code }];
    }
    if (SESSION_ENDING_CLOSE_CODES.has(code)) this.#snapshot.session = null;
    this.#countFailedResume();
    return this.#connect(this.#backoffMs());
  }

  /** Every payload we send is one of discord-api-types' `GatewaySendPayload`s: a wrong field fails the typecheck. */
  #send(payload: GatewaySendPayload): GatewayAction {
    return { type: "send", connection: this.#connection, payload };
  }
}
