import { describe, expect, it } from "vitest";
import { IDENTIFY_BUDGET, INTENTS, OPCODE, RESUMABLE_CLOSE_CODE } from "../../lib/platforms/discord/gateway/protocol.ts";
import type { GatewayAction, GatewaySnapshot } from "../../lib/platforms/discord/gateway/session-io.ts";
import { FATAL_RETRY_AFTER_MS, GatewaySession } from "../../lib/platforms/discord/gateway/session.ts";

const TOKEN = "bot-token";
const NOW = 1_750_000_000_000;
const HEARTBEAT_MS = 41_250;

function session(snapshot?: GatewaySnapshot, random = () => 0.5) {
  return new GatewaySession({ token: TOKEN, tokenFingerprint: "fp-1", gatewayUrl: "wss://gateway.test", random, ...(snapshot ? { snapshot } : {}) });
}
const ofType = <T extends GatewayAction["type"]>(actions: GatewayAction[], type: T) =>
  actions.filter((a): a is Extract<GatewayAction, { type: T }> => a.type === type);
const sent = (actions: GatewayAction[]) => ofType(actions, "send").map((a) => a.payload);

/** start → open → HELLO; returns the actions of HELLO. */
function handshake(s: GatewaySession): GatewayAction[] {
  s.handle({ type: "start", now: NOW });
  s.handle({ type: "open", connection: s.connection });
  return s.handle({ type: "payload", connection: s.connection, now: NOW, payload: { op: OPCODE.HELLO, d: { heartbeat_interval: HEARTBEAT_MS } } });
}
function ready(s: GatewaySession, seq = 1): GatewayAction[] {
  return s.handle({
    type: "payload",
    connection: s.connection,
    now: NOW,
    payload: { op: 0, t: "READY", s: seq, d: { session_id: "sess-1", resume_gateway_url: "wss://resume.test", user: { id: "42" } } },
  });
}
const dispatch = (s: GatewaySession, seq: number, t = "MESSAGE_CREATE") =>
  s.handle({ type: "payload", connection: s.connection, now: NOW, payload: { op: 0, t, s: seq, d: { n: seq } } });

describe("GatewaySession", () => {
  it("connects to the gateway URL with version and encoding, then identifies with its intents after HELLO", () => {
    const s = session();
    const [connect] = s.handle({ type: "start", now: NOW });
    expect(connect).toMatchObject({ type: "connect", mode: "identify", url: "wss://gateway.test/?v=10&encoding=json", delayMs: 0 });
    s.handle({ type: "open", connection: s.connection });
    const actions = s.handle({ type: "payload", connection: s.connection, now: NOW, payload: { op: 10, d: { heartbeat_interval: HEARTBEAT_MS } } });
    expect(sent(actions)).toEqual([{ op: 2, d: { token: TOKEN, intents: INTENTS, properties: expect.any(Object) } }]);
  });

  it.each([
    ["GUILDS: GUILD_CREATE (the bot's role) and GUILD_DELETE (the guild's cleanup)", 1 << 0],
    ["GUILD_MESSAGES", 1 << 9],
    ["GUILD_MESSAGE_REACTIONS: a 👎 in a server channel", 1 << 10],
    ["DIRECT_MESSAGES", 1 << 12],
    ["DIRECT_MESSAGE_REACTIONS: a 👎 in a DM", 1 << 13],
    ["MESSAGE_CONTENT: what people write", 1 << 15],
  ])("asks for %s", (_name, bit) => {
    expect(INTENTS & bit).toBe(bit);
  });

  it("beats first after interval × jitter, then every interval, with the last sequence number", () => {
    const s = session(undefined, () => 0.25);
    const hello = handshake(s);
    expect(ofType(hello, "schedule_heartbeat")[0]!.delayMs).toBe(Math.round(HEARTBEAT_MS * 0.25));
    ready(s, 1);
    dispatch(s, 2);
    const beat = s.handle({ type: "heartbeat_due", connection: s.connection });
    expect(sent(beat)).toEqual([{ op: 1, d: 2 }]);
    expect(ofType(beat, "schedule_heartbeat")[0]!.delayMs).toBe(HEARTBEAT_MS);
  });

  it("answers a heartbeat request from Discord at once", () => {
    const s = session();
    handshake(s);
    ready(s, 5);
    expect(sent(s.handle({ type: "payload", connection: s.connection, now: NOW, payload: { op: 1, d: null } }))).toEqual([{ op: 1, d: 5 }]);
  });

  it("hands every dispatch on, READY included, and keeps the sequence number", () => {
    const s = session();
    handshake(s);
    expect(ofType(ready(s, 1), "dispatch")[0]).toMatchObject({ event: "READY" });
    expect(ofType(dispatch(s, 2), "dispatch")).toEqual([{ type: "dispatch", event: "MESSAGE_CREATE", data: { n: 2 } }]);
    expect(s.snapshot.session).toEqual({ sessionId: "sess-1", resumeUrl: "wss://resume.test", seq: 2, botUserId: "42", intents: INTENTS });
    expect(s.phase).toBe("ready");
  });

  it("treats a missing ACK before the next beat as a zombie: closes resumably and resumes on the resume URL", () => {
    const s = session();
    handshake(s);
    ready(s, 1);
    dispatch(s, 3);
    s.handle({ type: "heartbeat_due", connection: s.connection }); // no ACK follows
    const old = s.connection;
    const actions = s.handle({ type: "heartbeat_due", connection: old });
    expect(actions[0]).toEqual({ type: "close", connection: old, code: RESUMABLE_CLOSE_CODE, reason: "zombie_connection" });
    expect(actions[1]).toMatchObject({ type: "connect", mode: "resume", url: "wss://resume.test/?v=10&encoding=json" });
    s.handle({ type: "open", connection: s.connection });
    const hello = s.handle({ type: "payload", connection: s.connection, now: NOW, payload: { op: 10, d: { heartbeat_interval: HEARTBEAT_MS } } });
    expect(sent(hello)).toEqual([{ op: 6, d: { token: TOKEN, session_id: "sess-1", seq: 3 } }]);
  });

  it("keeps beating while ACKs arrive", () => {
    const s = session();
    handshake(s);
    ready(s);
    for (let i = 0; i < 3; i++) {
      expect(sent(s.handle({ type: "heartbeat_due", connection: s.connection }))).toHaveLength(1);
      s.handle({ type: "payload", connection: s.connection, now: NOW, payload: { op: 11 } });
    }
    expect(s.connection).toBe(1);
  });

  it("resumes on RECONNECT, and ignores the old socket's close afterwards", () => {
    const s = session();
    handshake(s);
    ready(s, 7);
    const actions = s.handle({ type: "payload", connection: 1, now: NOW, payload: { op: 7, d: null } });
    expect(actions.map((a) => a.type)).toEqual(["close", "connect"]);
    expect(ofType(actions, "connect")[0]!.mode).toBe("resume");
    expect(s.handle({ type: "closed", connection: 1, code: RESUMABLE_CLOSE_CODE, now: NOW })).toEqual([]);
  });

  it("resumes on RECONNECT after a backoff that grows while Discord keeps asking before the resume got through", () => {
    const s = session(undefined, () => 0.999);
    handshake(s);
    ready(s);
    const delays: number[] = [];
    for (let i = 0; i < 2; i++) {
      delays.push(ofType(s.handle({ type: "payload", connection: s.connection, now: NOW, payload: { op: 7, d: null } }), "connect")[0]!.delayMs);
      s.handle({ type: "open", connection: s.connection });
    }
    expect(delays[0]).toBeGreaterThanOrEqual(500);
    expect(delays[1]).toBeGreaterThan(delays[0]!);
  });

  it.each([
    ["RECONNECT", { op: 7, d: null }],
    ["resumable INVALID_SESSION", { op: 9, d: true }],
  ])("counts a %s that comes before RESUMED as a failed resume: after three, identifies anew at the configured URL", (_name, payload) => {
    const s = session();
    handshake(s);
    ready(s);
    const modes: string[] = [];
    for (let i = 0; i < 4; i++) {
      const connect = ofType(s.handle({ type: "payload", connection: s.connection, now: NOW, payload }), "connect")[0];
      modes.push(connect?.mode ?? "none");
      s.handle({ type: "open", connection: s.connection });
      s.handle({ type: "payload", connection: s.connection, now: NOW, payload: { op: 10, d: { heartbeat_interval: HEARTBEAT_MS } } });
    }
    // The first asks a healthy session to move; the next three come before their resume got through.
    expect(modes.slice(0, 4)).toEqual(["resume", "resume", "resume", "identify"]);
    expect(s.snapshot.session).toBeNull();
  });

  it("resumes after a resumable INVALID_SESSION and identifies anew, after 1–5 s, after a non-resumable one", () => {
    const s = session();
    handshake(s);
    ready(s);
    expect(ofType(s.handle({ type: "payload", connection: s.connection, now: NOW, payload: { op: 9, d: true } }), "connect")[0]!.mode).toBe("resume");
    s.handle({ type: "open", connection: s.connection });
    const again = s.handle({ type: "payload", connection: s.connection, now: NOW, payload: { op: 9, d: false } });
    const connect = ofType(again, "connect")[0]!;
    expect(connect.mode).toBe("identify");
    expect(connect.delayMs).toBeGreaterThanOrEqual(1_000);
    expect(connect.delayMs).toBeLessThanOrEqual(5_000);
    expect(s.snapshot.session).toBeNull();
  });

  it.each([4004, 4010, 4011, 4012, 4013, 4014])("does not reconnect after close code %i, not even when started again", (code) => {
    const s = session();
    handshake(s);
    expect(s.handle({ type: "closed", connection: s.connection, code, now: NOW })).toEqual([{ type: "stopped", reason: "fatal_close", closeCode: code }]);
    const restarted = session(s.snapshot);
    expect(restarted.handle({ type: "start", now: NOW + 60_000 })).toEqual([{ type: "stopped", reason: "fatal_close", closeCode: code }]);
  });

  it("tries again after a fatal close once the token has changed, or after an hour", () => {
    const s = session();
    handshake(s);
    s.handle({ type: "closed", connection: s.connection, code: 4004, now: NOW });
    const newToken = new GatewaySession({ token: "new", tokenFingerprint: "fp-2", gatewayUrl: "wss://gateway.test", random: () => 0.5, snapshot: s.snapshot });
    expect(newToken.handle({ type: "start", now: NOW + 1 })[0]).toMatchObject({ type: "connect" });
    expect(session(s.snapshot).handle({ type: "start", now: NOW + FATAL_RETRY_AFTER_MS })[0]).toMatchObject({ type: "connect" });
  });

  it("resumes after an unexpected close, and identifies anew after 4007 or 4009", () => {
    const s = session();
    handshake(s);
    ready(s);
    expect(ofType(s.handle({ type: "closed", connection: 1, code: 1006, now: NOW }), "connect")[0]!.mode).toBe("resume");
    expect(ofType(s.handle({ type: "closed", connection: 2, code: 4009, now: NOW }), "connect")[0]!.mode).toBe("identify");
  });

  it("backs off longer after each failed connect, and starts over after a successful one", () => {
    const s = session(undefined, () => 0.999);
    s.handle({ type: "start", now: NOW });
    const delays = [1, 2, 3, 4].map(() => ofType(s.handle({ type: "closed", connection: s.connection, code: 1006, now: NOW }), "connect")[0]!.delayMs);
    expect(delays).toEqual([...delays].sort((a, b) => a - b));
    expect(delays[3]).toBeGreaterThan(delays[0]! * 4);
    s.handle({ type: "open", connection: s.connection });
    s.handle({ type: "payload", connection: s.connection, now: NOW, payload: { op: 10, d: { heartbeat_interval: HEARTBEAT_MS } } });
    ready(s);
    expect(ofType(s.handle({ type: "closed", connection: s.connection, code: 1006, now: NOW }), "connect")[0]!.delayMs).toBeLessThanOrEqual(1_000);
  });

  it("drops the session after 3 resumes that never got through and identifies at the configured URL", () => {
    const stored: GatewaySnapshot = { session: { sessionId: "s", resumeUrl: "wss://dead-resume.test", seq: 9, botUserId: "42", intents: INTENTS }, identifies: [] };
    const s = session(stored);
    const connects = [ofType(s.handle({ type: "start", now: NOW }), "connect")[0]!];
    // The resume URL refuses the socket, or opens it and closes before RESUMED.
    for (let i = 0; i < 3; i++) {
      if (i === 1) s.handle({ type: "open", connection: s.connection });
      connects.push(ofType(s.handle({ type: "closed", connection: s.connection, code: 1006, now: NOW }), "connect")[0]!);
    }
    expect(connects.map((c) => c.mode)).toEqual(["resume", "resume", "resume", "identify"]);
    expect(connects[3]!.url).toBe("wss://gateway.test/?v=10&encoding=json");
    expect(s.snapshot.session).toBeNull();
    s.handle({ type: "open", connection: s.connection });
    const hello = s.handle({ type: "payload", connection: s.connection, now: NOW, payload: { op: 10, d: { heartbeat_interval: HEARTBEAT_MS } } });
    expect(sent(hello)[0]!.op).toBe(OPCODE.IDENTIFY);
  });

  it("counts only failed resumes in a row: a resume that got through starts the count over", () => {
    const s = session();
    handshake(s);
    ready(s);
    const close = () => ofType(s.handle({ type: "closed", connection: s.connection, code: 1006, now: NOW }), "connect")[0]!.mode;
    expect([close(), close()]).toEqual(["resume", "resume"]);
    s.handle({ type: "open", connection: s.connection });
    s.handle({ type: "payload", connection: s.connection, now: NOW, payload: { op: 10, d: { heartbeat_interval: HEARTBEAT_MS } } });
    s.handle({ type: "payload", connection: s.connection, now: NOW, payload: { op: 0, t: "RESUMED", s: 3, d: null } });
    // The resumed connection drops (not a failed resume), then three resumes fail.
    expect([close(), close(), close(), close()]).toEqual(["resume", "resume", "resume", "identify"]);
  });

  it("identifies at the configured URL, not the resume URL, after a non-resumable INVALID_SESSION", () => {
    const s = session();
    handshake(s);
    ready(s);
    const connect = ofType(s.handle({ type: "payload", connection: s.connection, now: NOW, payload: { op: 9, d: false } }), "connect")[0]!;
    expect(connect).toMatchObject({ mode: "identify", url: "wss://gateway.test/?v=10&encoding=json" });
  });

  it("resumes a stored session after a restart instead of identifying", () => {
    const stored: GatewaySnapshot = { session: { sessionId: "s", resumeUrl: "wss://r.test", seq: 9, botUserId: "42", intents: INTENTS }, identifies: [] };
    const s = session(stored);
    expect(ofType(s.handle({ type: "start", now: NOW }), "connect")[0]!.mode).toBe("resume");
  });

  it("identifies anew instead of resuming a session identified with other intents (a RESUME keeps the old ones)", () => {
    const before: GatewaySnapshot = { session: { sessionId: "s", resumeUrl: "wss://r.test", seq: 9, botUserId: "42" }, identifies: [] };
    const other: GatewaySnapshot = { session: { sessionId: "s", resumeUrl: "wss://r.test", seq: 9, botUserId: "42", intents: 38400 }, identifies: [] };
    for (const stored of [before, other]) expect(ofType(session(stored).handle({ type: "start", now: NOW }), "connect")[0]).toMatchObject({ mode: "identify", url: "wss://gateway.test/?v=10&encoding=json" });
  });

  it("stops identifying once the daily budget is spent, and forgets identifies older than 24 h", () => {
    const spent: GatewaySnapshot = { session: null, identifies: Array.from({ length: IDENTIFY_BUDGET }, (_, i) => NOW - i * 1000) };
    expect(session(spent).handle({ type: "start", now: NOW })).toEqual([{ type: "stopped", reason: "identify_budget" }]);
    const old: GatewaySnapshot = { session: null, identifies: spent.identifies.map((t) => t - 25 * 60 * 60 * 1000) };
    const s = session(old);
    const hello = handshake(s);
    expect(sent(hello)[0]!.op).toBe(2);
    expect(s.snapshot.identifies).toEqual([NOW]);
  });

  it("counts each IDENTIFY it sends", () => {
    const s = session();
    handshake(s);
    expect(s.snapshot.identifies).toEqual([NOW]);
  });
});
