import { describe, expect, it } from "vitest";
import { IDENTIFY_BUDGET, INTENTS, RESUMABLE_CLOSE_CODE } from "../../lib/platforms/discord/gateway/protocol.ts";
import type { GatewaySnapshot } from "../../lib/platforms/discord/gateway/session-io.ts";
import {
  dispatch,
  handshake,
  HEARTBEAT_MS,
  NOW,
  ofType,
  ready,
  sent,
  session,
  TOKEN,
} from "../support/gateway-session.ts";

describe("GatewaySession", () => {
  it("connects to the gateway URL with version and encoding, then identifies with its intents after HELLO", () => {
    const s = session();
    const [connect] = s.handle({ type: "start", now: NOW });
    expect(connect).toMatchObject({
      type: "connect",
      mode: "identify",
      url: "wss://gateway.test/?v=10&encoding=json",
      delayMs: 0,
    });
    s.handle({ type: "open", connection: s.connection });
    const actions = s.handle({
      type: "payload",
      connection: s.connection,
      now: NOW,
      payload: { op: 10, d: { heartbeat_interval: HEARTBEAT_MS } },
    });
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
    expect(
      sent(s.handle({ type: "payload", connection: s.connection, now: NOW, payload: { op: 1, d: null } })),
    ).toEqual([{ op: 1, d: 5 }]);
  });

  it("hands every dispatch on, READY included, and keeps the sequence number", () => {
    const s = session();
    handshake(s);
    expect(ofType(ready(s, 1), "dispatch")[0]).toMatchObject({ event: "READY" });
    expect(ofType(dispatch(s, 2), "dispatch")).toEqual([{ type: "dispatch", event: "MESSAGE_CREATE", data: { n: 2 } }]);
    expect(s.snapshot.session).toEqual({
      sessionId: "sess-1",
      resumeUrl: "wss://resume.test",
      seq: 2,
      botUserId: "42",
      intents: INTENTS,
    });
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
    expect(actions[0]).toEqual({
      type: "close",
      connection: old,
      code: RESUMABLE_CLOSE_CODE,
      reason: "zombie_connection",
    });
    expect(actions[1]).toMatchObject({ type: "connect", mode: "resume", url: "wss://resume.test/?v=10&encoding=json" });
    s.handle({ type: "open", connection: s.connection });
    const hello = s.handle({
      type: "payload",
      connection: s.connection,
      now: NOW,
      payload: { op: 10, d: { heartbeat_interval: HEARTBEAT_MS } },
    });
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

  it("resumes a stored session after a restart instead of identifying", () => {
    const stored: GatewaySnapshot = {
      session: { sessionId: "s", resumeUrl: "wss://r.test", seq: 9, botUserId: "42", intents: INTENTS },
      identifies: [],
    };
    const s = session(stored);
    expect(ofType(s.handle({ type: "start", now: NOW }), "connect")[0]!.mode).toBe("resume");
  });

  it("identifies anew instead of resuming a session identified with other intents (a RESUME keeps the old ones)", () => {
    const before: GatewaySnapshot = {
      session: { sessionId: "s", resumeUrl: "wss://r.test", seq: 9, botUserId: "42" },
      identifies: [],
    };
    const other: GatewaySnapshot = {
      session: { sessionId: "s", resumeUrl: "wss://r.test", seq: 9, botUserId: "42", intents: 38400 },
      identifies: [],
    };
    for (const stored of [before, other])
      expect(ofType(session(stored).handle({ type: "start", now: NOW }), "connect")[0]).toMatchObject({
        mode: "identify",
        url: "wss://gateway.test/?v=10&encoding=json",
      });
  });

  it("stops identifying once the daily budget is spent, and forgets identifies older than 24 h", () => {
    const spent: GatewaySnapshot = {
      session: null,
      identifies: Array.from({ length: IDENTIFY_BUDGET }, (_, i) => NOW - i * 1000),
    };
    expect(session(spent).handle({ type: "start", now: NOW })).toEqual([
      { type: "stopped", reason: "identify_budget" },
    ]);
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
