import { afterEach, describe, expect, it } from "vitest";
import {
  startDiscordGatewayFake,
  type GatewayFakeState,
  type RunningDiscordGatewayFake,
} from "../../dev/fakes/discord-gateway.ts";
import { GatewayConnection } from "../../lib/platforms/discord/gateway/connection.ts";
import type { GatewaySnapshot } from "../../lib/platforms/discord/gateway/session-io.ts";
import type { Logger } from "../../lib/log.ts";

const TOKEN = "gateway-test-token";
const HEARTBEAT_MS = 200;
let fake: RunningDiscordGatewayFake | undefined;
let connection: GatewayConnection | undefined;

afterEach(async () => {
  connection?.shutdown();
  await fake?.close();
});

interface Harness {
  fake: RunningDiscordGatewayFake;
  connection: GatewayConnection;
  received: string[];
  events: string[];
  stored: () => GatewaySnapshot | undefined;
}

async function connect(
  opts: { token?: string; snapshot?: GatewaySnapshot; handshakeTimeoutMs?: number } = {},
): Promise<Harness> {
  fake = await startDiscordGatewayFake({ port: 0, heartbeatIntervalMs: HEARTBEAT_MS, token: TOKEN });
  const received: string[] = [];
  const events: string[] = [];
  let stored = opts.snapshot;
  const log: Logger = {
    info: (e) => void events.push(e),
    warn: (e) => void events.push(e),
    error: (e) => void events.push(e),
  };
  connection = new GatewayConnection({
    token: opts.token ?? TOKEN,
    gatewayUrl: fake.url,
    load: async () => stored,
    save: async (s) => void (stored = s),
    onDispatch: async (event, data) => {
      if (event === "MESSAGE_CREATE") received.push((data as { content: string }).content);
    },
    log,
    // The shortest backoffs (0.5 s, 1 s, 2 s), so that three failed resumes take seconds.
    random: () => 0,
    ...(opts.handshakeTimeoutMs ? { handshakeTimeoutMs: opts.handshakeTimeoutMs } : {}),
  });
  await connection.start();
  return { fake, connection, received, events, stored: () => stored };
}

async function control(h: Harness, path: string, body: unknown = {}): Promise<void> {
  const res = await fetch(`${h.fake.controlUrl}${path}`, { method: "POST", body: JSON.stringify(body) });
  expect(res.status).toBe(200);
}
async function state(h: Harness): Promise<GatewayFakeState> {
  return (await (await fetch(`${h.fake.controlUrl}/__state`)).json()) as GatewayFakeState;
}
async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
const say = (h: Harness, content: string) =>
  control(h, "/__message", { channel_id: "1", guild_id: "2", content, author: { id: "3", username: "alice" } });

describe("GatewayConnection over the fake Gateway", () => {
  it("identifies, becomes ready and hands on channel messages in order", async () => {
    const h = await connect();
    await until(() => h.connection.status().phase === "ready", "READY");
    for (const n of [1, 2, 3]) await say(h, `m${n}`);
    await until(() => h.received.length === 3, "three messages");
    expect(h.received).toEqual(["m1", "m2", "m3"]);
    expect((await state(h)).identifies).toBe(1);
    expect(h.stored()?.session?.sessionId).toBe((await state(h)).sessionId);
  });

  it("keeps heartbeating while ACKs come", async () => {
    const h = await connect();
    await until(async () => (await state(h)).heartbeats >= 4, "four heartbeats");
    expect((await state(h)).connections).toBe(1);
  });

  it("on a forced RECONNECT resumes the session without losing or repeating a message", async () => {
    const h = await connect();
    await until(() => h.connection.status().phase === "ready", "READY");
    await say(h, "before");
    await until(() => h.received.length === 1, "first message");
    await control(h, "/__reconnect");
    // Sent while the bot is between sockets: Discord keeps it for the RESUME.
    await say(h, "during");
    await until(async () => (await state(h)).resumes === 1 && (await state(h)).connected, "resume");
    await say(h, "after");
    await until(() => h.received.length >= 3, "all messages");
    await new Promise((r) => setTimeout(r, 200));
    expect(h.received).toEqual(["before", "during", "after"]);
    expect((await state(h)).identifies).toBe(1);
  });

  it("detects a zombie connection when ACKs stop, and resumes on a new socket", async () => {
    const h = await connect();
    await until(() => h.connection.status().phase === "ready", "READY");
    await control(h, "/__drop_acks", { count: 1 });
    await until(async () => (await state(h)).resumes === 1, "resume after zombie", 3_000);
    expect(h.events).toContain("discord_gateway_closing");
    expect((await state(h)).identifies).toBe(1);
    await say(h, "still here");
    await until(() => h.received.includes("still here"), "message after resume");
  });

  it("identifies again after a non-resumable INVALID_SESSION, and resumes after a resumable one", async () => {
    const h = await connect();
    await until(() => h.connection.status().phase === "ready", "READY");
    await control(h, "/__invalid_session", { resumable: true });
    await until(async () => (await state(h)).resumes === 1, "resume");
    await control(h, "/__invalid_session", { resumable: false });
    await until(async () => (await state(h)).identifies === 2, "second identify", 8_000);
  }, 15_000);

  it.each(["refuse", "hang"] as const)(
    "identifies again at the configured URL after 3 resumes against a dead resume URL (%s)",
    async (mode) => {
      const h = await connect({ handshakeTimeoutMs: 500 });
      await until(() => h.connection.status().phase === "ready", "READY");
      await control(h, "/__resume_url", { dead: true, mode });
      await control(h, "/__reconnect");
      await until(
        async () => (await state(h)).identifies === 2 && h.connection.status().phase === "ready",
        "a new session",
        12_000,
      );
      expect((await state(h)).resumes).toBe(0);
      expect(h.events.filter((e) => e === "discord_gateway_connecting")).toHaveLength(5);
      await say(h, "after the new session");
      await until(() => h.received.includes("after the new session"), "a message on the new session");
    },
    20_000,
  );

  it("stops for good on 4004 (bad token) and does not reconnect", async () => {
    const h = await connect({ token: "wrong-token" });
    await until(() => h.events.includes("discord_gateway_stopped"), "stop");
    await new Promise((r) => setTimeout(r, 500));
    expect((await state(h)).connections).toBe(1);
    expect(h.stored()?.fatal?.closeCode).toBe(4004);
  });

  it("resumes a stored session after a restart instead of identifying", async () => {
    const first = await connect();
    await until(() => first.connection.status().phase === "ready", "READY");
    await say(first, "one");
    await until(() => first.received.length === 1, "one");
    first.connection.shutdown();
    await say(first, "missed while down");
    const restarted = new GatewayConnection({
      token: TOKEN,
      gatewayUrl: first.fake.url,
      load: async () => first.stored(),
      save: async () => {},
      onDispatch: async (event, data) => {
        if (event === "MESSAGE_CREATE") first.received.push((data as { content: string }).content);
      },
      log: { info: () => {}, warn: () => {}, error: () => {} },
    });
    connection = restarted;
    await restarted.start();
    await until(() => first.received.length === 2, "the missed message");
    expect(first.received).toEqual(["one", "missed while down"]);
    expect((await state(first)).identifies).toBe(1);
    expect((await state(first)).resumes).toBe(1);
  });
});
