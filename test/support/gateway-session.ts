/**
 * @module
 * Driving the Gateway's state machine (lib/platforms/discord/gateway/session.ts) in unit tests: a session with a
 * fixed token, URL and jitter, the handshake up to HELLO, READY and dispatches, and picking actions by type.
 */
import { OPCODE } from "../../lib/platforms/discord/gateway/protocol.ts";
import type { GatewayAction, GatewaySnapshot } from "../../lib/platforms/discord/gateway/session-io.ts";
import { GatewaySession } from "../../lib/platforms/discord/gateway/session.ts";

export const TOKEN = "bot-token";
export const NOW = 1_750_000_000_000;
export const HEARTBEAT_MS = 41_250;

export function session(snapshot?: GatewaySnapshot, random = () => 0.5) {
  return new GatewaySession({
    token: TOKEN,
    tokenFingerprint: "fp-1",
    gatewayUrl: "wss://gateway.test",
    random,
    ...(snapshot ? { snapshot } : {}),
  });
}
export const ofType = <T extends GatewayAction["type"]>(actions: GatewayAction[], type: T) =>
  actions.filter((a): a is Extract<GatewayAction, { type: T }> => a.type === type);
export const sent = (actions: GatewayAction[]) => ofType(actions, "send").map((a) => a.payload);

/** start → open → HELLO; returns the actions of HELLO. */
export function handshake(s: GatewaySession): GatewayAction[] {
  s.handle({ type: "start", now: NOW });
  s.handle({ type: "open", connection: s.connection });
  return s.handle({
    type: "payload",
    connection: s.connection,
    now: NOW,
    payload: { op: OPCODE.HELLO, d: { heartbeat_interval: HEARTBEAT_MS } },
  });
}
export function ready(s: GatewaySession, seq = 1): GatewayAction[] {
  return s.handle({
    type: "payload",
    connection: s.connection,
    now: NOW,
    payload: {
      op: 0,
      t: "READY",
      s: seq,
      d: { session_id: "sess-1", resume_gateway_url: "wss://resume.test", user: { id: "42" } },
    },
  });
}
export const dispatch = (s: GatewaySession, seq: number, t = "MESSAGE_CREATE") =>
  s.handle({ type: "payload", connection: s.connection, now: NOW, payload: { op: 0, t, s: seq, d: { n: seq } } });
