import { describe, expect, it } from "vitest";
import { INTENTS, OPCODE, RESUMABLE_CLOSE_CODE } from "../../lib/platforms/discord/gateway/protocol.ts";
import { FATAL_RETRY_AFTER_MS } from "../../lib/platforms/discord/gateway/reconnect-delays.ts";
import { GatewaySession } from "../../lib/platforms/discord/gateway/session.ts";
import type { GatewaySnapshot } from "../../lib/platforms/discord/gateway/session-io.ts";
import { HEARTBEAT_MS, handshake, NOW, ofType, ready, sent, session } from "../support/gateway-session.ts";

describe("GatewaySession reconnecting", () => {
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
      delays.push(
        ofType(
          s.handle({ type: "payload", connection: s.connection, now: NOW, payload: { op: 7, d: null } }),
          "connect",
        )[0]!.delayMs,
      );
      s.handle({ type: "open", connection: s.connection });
    }
    expect(delays[0]).toBeGreaterThanOrEqual(500);
    expect(delays[1]).toBeGreaterThan(delays[0]!);
  });

  it.each([
    ["RECONNECT", { op: 7, d: null }],
    ["resumable INVALID_SESSION", { op: 9, d: true }],
  ])(
    "counts a %s that comes before RESUMED as a failed resume: after three, identifies anew at the configured URL",
    (_name, payload) => {
      const s = session();
      handshake(s);
      ready(s);
      const modes: string[] = [];
      for (let i = 0; i < 4; i++) {
        const connect = ofType(
          s.handle({ type: "payload", connection: s.connection, now: NOW, payload }),
          "connect",
        )[0];
        modes.push(connect?.mode ?? "none");
        s.handle({ type: "open", connection: s.connection });
        s.handle({
          type: "payload",
          connection: s.connection,
          now: NOW,
          payload: { op: 10, d: { heartbeat_interval: HEARTBEAT_MS } },
        });
      }
      // The first asks a healthy session to move; the next three come before their resume got through.
      expect(modes.slice(0, 4)).toEqual(["resume", "resume", "resume", "identify"]);
      expect(s.snapshot.session).toBeNull();
    },
  );

  it("resumes after a resumable INVALID_SESSION and identifies anew, after 1–5 s, after a non-resumable one", () => {
    const s = session();
    handshake(s);
    ready(s);
    expect(
      ofType(
        s.handle({ type: "payload", connection: s.connection, now: NOW, payload: { op: 9, d: true } }),
        "connect",
      )[0]!.mode,
    ).toBe("resume");
    s.handle({ type: "open", connection: s.connection });
    const again = s.handle({ type: "payload", connection: s.connection, now: NOW, payload: { op: 9, d: false } });
    const connect = ofType(again, "connect")[0]!;
    expect(connect.mode).toBe("identify");
    expect(connect.delayMs).toBeGreaterThanOrEqual(1_000);
    expect(connect.delayMs).toBeLessThanOrEqual(5_000);
    expect(s.snapshot.session).toBeNull();
  });

  it.each([4004, 4010, 4011, 4012, 4013, 4014])(
    "does not reconnect after close code %i, not even when started again",
    (code) => {
      const s = session();
      handshake(s);
      expect(s.handle({ type: "closed", connection: s.connection, code, now: NOW })).toEqual([
        { type: "stopped", reason: "fatal_close", closeCode: code },
      ]);
      const restarted = session(s.snapshot);
      expect(restarted.handle({ type: "start", now: NOW + 60_000 })).toEqual([
        { type: "stopped", reason: "fatal_close", closeCode: code },
      ]);
    },
  );

  it("tries again after a fatal close once the token has changed, or after an hour", () => {
    const s = session();
    handshake(s);
    s.handle({ type: "closed", connection: s.connection, code: 4004, now: NOW });
    const newToken = new GatewaySession({
      token: "new",
      tokenFingerprint: "fp-2",
      gatewayUrl: "wss://gateway.test",
      random: () => 0.5,
      snapshot: s.snapshot,
    });
    expect(newToken.handle({ type: "start", now: NOW + 1 })[0]).toMatchObject({ type: "connect" });
    expect(session(s.snapshot).handle({ type: "start", now: NOW + FATAL_RETRY_AFTER_MS })[0]).toMatchObject({
      type: "connect",
    });
  });

  it("resumes after an unexpected close, and identifies anew after 4007 or 4009", () => {
    const s = session();
    handshake(s);
    ready(s);
    expect(ofType(s.handle({ type: "closed", connection: 1, code: 1006, now: NOW }), "connect")[0]!.mode).toBe(
      "resume",
    );
    expect(ofType(s.handle({ type: "closed", connection: 2, code: 4009, now: NOW }), "connect")[0]!.mode).toBe(
      "identify",
    );
  });

  it("backs off longer after each failed connect, and starts over after a successful one", () => {
    const s = session(undefined, () => 0.999);
    s.handle({ type: "start", now: NOW });
    const delays = [1, 2, 3, 4].map(
      () => ofType(s.handle({ type: "closed", connection: s.connection, code: 1006, now: NOW }), "connect")[0]!.delayMs,
    );
    expect(delays).toEqual([...delays].sort((a, b) => a - b));
    expect(delays[3]).toBeGreaterThan(delays[0]! * 4);
    s.handle({ type: "open", connection: s.connection });
    s.handle({
      type: "payload",
      connection: s.connection,
      now: NOW,
      payload: { op: 10, d: { heartbeat_interval: HEARTBEAT_MS } },
    });
    ready(s);
    expect(
      ofType(s.handle({ type: "closed", connection: s.connection, code: 1006, now: NOW }), "connect")[0]!.delayMs,
    ).toBeLessThanOrEqual(1_000);
  });

  it("drops the session after 3 resumes that never got through and identifies at the configured URL", () => {
    const stored: GatewaySnapshot = {
      session: { sessionId: "s", resumeUrl: "wss://dead-resume.test", seq: 9, botUserId: "42", intents: INTENTS },
      identifies: [],
    };
    const s = session(stored);
    const connects = [ofType(s.handle({ type: "start", now: NOW }), "connect")[0]!];
    // The resume URL refuses the socket, or opens it and closes before RESUMED.
    for (let i = 0; i < 3; i++) {
      if (i === 1) s.handle({ type: "open", connection: s.connection });
      connects.push(
        ofType(s.handle({ type: "closed", connection: s.connection, code: 1006, now: NOW }), "connect")[0]!,
      );
    }
    expect(connects.map((c) => c.mode)).toEqual(["resume", "resume", "resume", "identify"]);
    expect(connects[3]!.url).toBe("wss://gateway.test/?v=10&encoding=json");
    expect(s.snapshot.session).toBeNull();
    s.handle({ type: "open", connection: s.connection });
    const hello = s.handle({
      type: "payload",
      connection: s.connection,
      now: NOW,
      payload: { op: 10, d: { heartbeat_interval: HEARTBEAT_MS } },
    });
    expect(sent(hello)[0]!.op).toBe(OPCODE.IDENTIFY);
  });

  it("counts only failed resumes in a row: a resume that got through starts the count over", () => {
    const s = session();
    handshake(s);
    ready(s);
    const close = () =>
      ofType(s.handle({ type: "closed", connection: s.connection, code: 1006, now: NOW }), "connect")[0]!.mode;
    expect([close(), close()]).toEqual(["resume", "resume"]);
    s.handle({ type: "open", connection: s.connection });
    s.handle({
      type: "payload",
      connection: s.connection,
      now: NOW,
      payload: { op: 10, d: { heartbeat_interval: HEARTBEAT_MS } },
    });
    s.handle({ type: "payload", connection: s.connection, now: NOW, payload: { op: 0, t: "RESUMED", s: 3, d: null } });
    // The resumed connection drops (not a failed resume), then three resumes fail.
    expect([close(), close(), close(), close()]).toEqual(["resume", "resume", "resume", "identify"]);
  });

  it("identifies at the configured URL, not the resume URL, after a non-resumable INVALID_SESSION", () => {
    const s = session();
    handshake(s);
    ready(s);
    const connect = ofType(
      s.handle({ type: "payload", connection: s.connection, now: NOW, payload: { op: 9, d: false } }),
      "connect",
    )[0]!;
    expect(connect).toMatchObject({ mode: "identify", url: "wss://gateway.test/?v=10&encoding=json" });
  });
});
