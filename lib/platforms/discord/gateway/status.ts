/**
 * @module
 * What a Gateway connection (./connection.ts) reports of itself: to the Durable Object's status route and to the
 * shard layout, which waits on it while a reshard runs.
 */
import type { GatewaySession } from "./session.ts";

export interface GatewayStatus {
  phase: string;
  connection: number;
  sessionId: string | null;
  seq: number | null;
  /** The close code that stopped the connection for good (4011: the bot must shard, or shard more). */
  fatalCloseCode: number | null;
}

/** A connection with no session yet (or no more) is idle. */
export function statusOf(session: GatewaySession | undefined): GatewayStatus {
  const snapshot = session?.snapshot;
  return {
    phase: session?.phase ?? "idle",
    connection: session?.connection ?? 0,
    sessionId: snapshot?.session?.sessionId ?? null,
    seq: snapshot?.session?.seq ?? null,
    fatalCloseCode: snapshot?.fatal?.closeCode ?? null,
  };
}
