/**
 * @module
 * The Gateway fake's sessions: one per IDENTIFY, owning its shard (`[id, count]`) until another IDENTIFY takes
 * the same shard; each keeps every dispatch with its sequence number so that a RESUME replays what was missed.
 * Guild events go to the owner of the guild's shard in every shard layout that is live (during a reshard both the
 * old and the new layout receive them, as on Discord). A session receives only what its IDENTIFY's intents ask for,
 * as they make Discord send it (./intents.ts). A session closed with 1000/1001 is gone; one whose socket dropped stays
 * resumable for a few minutes.
 */
import type { WebSocket } from "ws";
import { DISCORD_FAKE_BOT } from "../discord/messages.ts";
import { asSeenWith, delivers } from "./intents.ts";
import { shardOf, type ShardTuple } from "./sharding.ts";

export const OP = {
  DISPATCH: 0,
  HEARTBEAT: 1,
  IDENTIFY: 2,
  RESUME: 6,
  RECONNECT: 7,
  INVALID_SESSION: 9,
  HELLO: 10,
  HEARTBEAT_ACK: 11,
} as const;
/** Discord keeps a dropped session resumable for "a few minutes". */
const RESUMABLE_FOR_MS = 180_000;
const INVALIDATING_CLOSE_CODES: ReadonlySet<number> = new Set([1000, 1001]);

export interface Session {
  id: string;
  shard: ShardTuple;
  /** What its IDENTIFY asked for; a RESUME keeps them. */
  intents: number;
  seq: number;
  /** Every dispatch with its sequence number, for replay on RESUME. */
  sent: { s: number; t: string; d: unknown }[];
  socket: WebSocket | undefined;
  disconnectedAt?: number;
}

export function sendPayload(socket: WebSocket | undefined, payload: unknown): boolean {
  if (socket?.readyState !== 1) return false;
  socket.send(JSON.stringify(payload));
  return true;
}

const shardKey = ([id, count]: ShardTuple) => `${id}/${count}`;

/** Decides, per dispatch, whether the socket drops instead of delivering it (a scripted fault). */
export type DropCheck = (session: Session, event: { t: string; d: unknown }) => boolean;

export class Sessions {
  readonly #dropInstead: DropCheck;
  #byId = new Map<string, Session>();
  #owners = new Map<string, Session>();
  /** The session last identified or resumed: what the controls act on when they name no shard. */
  current: Session | undefined;
  /** Guild events no live session could receive. */
  undelivered = 0;

  constructor(dropInstead: DropCheck = () => false) {
    this.#dropInstead = dropInstead;
  }

  start(id: string, shard: ShardTuple, intents: number, socket: WebSocket): Session {
    const session: Session = { id, shard, intents, seq: 0, sent: [], socket };
    this.#byId.set(id, session);
    this.#owners.set(shardKey(shard), session);
    this.current = session;
    return session;
  }

  get(id: string): Session | undefined {
    return this.#byId.get(id);
  }

  /** Moves the session to `socket` (closing the one it had) and makes it its shard's owner again. */
  resume(session: Session, socket: WebSocket): void {
    if (session.socket && session.socket !== socket) session.socket.close(4000, "resumed elsewhere");
    session.socket = socket;
    delete session.disconnectedAt;
    this.#owners.set(shardKey(session.shard), session);
    this.current = session;
  }

  invalidate(session: Session): void {
    this.#byId.delete(session.id);
    if (this.#owners.get(shardKey(session.shard)) === session) this.#owners.delete(shardKey(session.shard));
  }

  socketClosed(socket: WebSocket, code: number, now = Date.now()): void {
    for (const session of this.#byId.values()) {
      if (session.socket !== socket) continue;
      session.socket = undefined;
      session.disconnectedAt = now;
      if (INVALIDATING_CLOSE_CODES.has(code)) this.invalidate(session);
    }
  }

  /**
   * Sends the dispatch as the session's intents let it through (READY and RESUMED always), numbered; false when not.
   */
  dispatch(session: Session, t: string, d: unknown): boolean {
    if (!delivers(session.intents, t, d)) return false;
    const event = { s: ++session.seq, t, d: asSeenWith(session.intents, t, d, DISCORD_FAKE_BOT.userId) };
    session.sent.push(event);
    if (session.socket && this.#dropInstead(session, event)) session.socket.terminate();
    else sendPayload(session.socket, { op: OP.DISPATCH, ...event });
    return true;
  }

  /**
   * Dispatches a guild's event (or a DM's, without a guild) to its shard's owner in every live layout whose intents
   * ask for it; answers how many received it.
   */
  dispatchToGuild(guildId: string | undefined, t: string, d: unknown, now = Date.now()): number {
    const targets = this.#liveOwners(now).filter((s) => shardOf(guildId, s.shard[1]) === s.shard[0]);
    if (targets.length === 0) this.undelivered += 1;
    return targets.filter((session) => this.dispatch(session, t, d)).length;
  }

  /** The owner of shard `id` (in the newest layout that has it), or the current session. */
  pick(shardId: number | undefined): Session | undefined {
    if (shardId === undefined) return this.current;
    return [...this.#owners.values()].reverse().find((s) => s.shard[0] === shardId);
  }

  owners(now = Date.now()): Session[] {
    return this.#liveOwners(now);
  }

  reset(): void {
    this.#byId.clear();
    this.#owners.clear();
    this.current = undefined;
    this.undelivered = 0;
  }

  #liveOwners(now: number): Session[] {
    for (const [key, session] of this.#owners) {
      if (session.disconnectedAt !== undefined && now - session.disconnectedAt > RESUMABLE_FOR_MS) {
        this.#owners.delete(key);
        this.#byId.delete(session.id);
      }
    }
    return [...this.#owners.values()];
  }
}
