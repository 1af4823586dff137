/**
 * @module
 * What a GatewayConnection is given: the token and URL, where its snapshot is kept, who handles dispatches, and the
 * seams the Durable Object and the tests fill (clock, randomness, sockets, IDENTIFY turns).
 */
import type { Logger } from "../../../log.ts";
import type { GatewaySnapshot, ShardTuple } from "./session-io.ts";

export interface GatewayConnectionOptions {
  token: string;
  gatewayUrl: string;
  load(): Promise<GatewaySnapshot | undefined>;
  save(snapshot: GatewaySnapshot): Promise<void>;
  /** Called for every dispatch but READY/RESUMED, in order; the next waits until this one settles. */
  onDispatch(event: string, data: unknown, botUserId: string): Promise<void>;
  log: Logger;
  now?: () => number;
  random?: () => number;
  /** Opens a socket to a ws(s):// URL; defaults to the WebSocket constructor. */
  openSocket?: (url: string) => Promise<WebSocket>;
  /** A socket that has not said anything (HELLO) this long after the connect began counts as failed. */
  handshakeTimeoutMs?: number;
  /** The shard this connection runs (IDENTIFY names it); absent: unsharded. */
  shard?: ShardTuple;
  /**
   * Resolves when this shard may IDENTIFY: Discord allows one IDENTIFY per concurrency bucket per 5 s and answers
   * another with op 9. Awaited after HELLO, before the IDENTIFY is sent; resumes need no turn. Rejects when no
   * turn is given (the bot's daily budget): the connect counts as failed and is tried again after a backoff.
   */
  identifyTurn?: () => Promise<void>;
}
