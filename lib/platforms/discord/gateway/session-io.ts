/**
 * @module
 * What goes into the Gateway's state machine (./session.ts) and what comes out of it, and the snapshot it leaves
 * for the next one: the types the runner (./connection.ts), the Durable Object and the shard layout share.
 */
import type { GatewaySendPayload } from "discord-api-types/v10";
import type { GatewayPayload } from "./protocol.ts";

/** What survives the object: enough to RESUME after an eviction, and the IDENTIFY times of the last 24 h. */
export interface GatewaySnapshot {
  /** `intents`: what the session was identified with (a RESUME keeps them; absent in a snapshot from before). */
  session: { sessionId: string; resumeUrl: string; seq: number | null; botUserId: string; intents?: number } | null;
  identifies: number[];
  /** Set after a fatal close code: nothing reconnects for an hour, or until the token changes. */
  fatal?: { closeCode: number; at: number; tokenFingerprint: string };
}

export type GatewayInput =
  | { type: "start"; now: number }
  | { type: "open"; connection: number }
  | { type: "payload"; connection: number; payload: GatewayPayload; now: number }
  | { type: "heartbeat_due"; connection: number }
  | { type: "closed"; connection: number; code: number; now: number };

export type GatewayAction =
  | { type: "connect"; connection: number; url: string; delayMs: number; mode: "identify" | "resume" }
  | { type: "send"; connection: number; payload: GatewaySendPayload }
  | { type: "schedule_heartbeat"; connection: number; delayMs: number }
  | { type: "close"; connection: number; code: number; reason: string }
  | { type: "dispatch"; event: string; data: unknown }
  | { type: "stopped"; reason: "fatal_close" | "identify_budget"; closeCode?: number };

export type ShardTuple = [id: number, count: number];
