/**
 * @module
 * What the Gateway client (./session.ts) answers HELLO with: IDENTIFY with the bot's intents, properties and
 * shard, or RESUME with the session and the last sequence number it saw. Each is one of discord-api-types'
 * `GatewaySendPayload`s, so a wrong field fails the typecheck.
 */
import type { GatewayIdentify, GatewayResume } from "discord-api-types/v10";
import { INTENTS, OPCODE } from "./protocol.ts";
import type { GatewaySnapshot, ShardTuple } from "./session-io.ts";

const CLIENT_PROPERTIES = { os: "cloudflare-workers", browser: "parley", device: "parley" };

export function identifyPayload(token: string, shard: ShardTuple | undefined): GatewayIdentify {
  return {
    op: OPCODE.IDENTIFY,
    d: { token, intents: INTENTS, properties: CLIENT_PROPERTIES, ...(shard ? { shard } : {}) },
  };
}

type StoredSession = NonNullable<GatewaySnapshot["session"]>;

/** READY always carries a sequence number; 0 (replay everything kept) only guards the type. */
export function resumePayload(token: string, session: StoredSession): GatewayResume {
  return { op: OPCODE.RESUME, d: { token, session_id: session.sessionId, seq: session.seq ?? 0 } };
}
