/**
 * @module
 * The Discord Gateway fake with many guilds: sharded IDENTIFY, events on the right shard, 4010/4011, the
 * recommended shard count through the REST fake's `GET /gateway/bot`, GUILD_DELETE, and a resume URL gone dead.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startDiscordFake, type RunningDiscordFake } from "../../dev/fakes/discord.ts";
import {
  startDiscordGatewayFake,
  type GatewayFakeState,
  type RunningDiscordGatewayFake,
} from "../../dev/fakes/discord-gateway.ts";
import { closeGatewayClients, connect, controlFake, type Client } from "../support/gateway-client.ts";

/** GUILDS (GUILD_CREATE, GUILD_DELETE), GUILD_MESSAGES, MESSAGE_CONTENT. */
const INTENTS = (1 << 0) | (1 << 9) | (1 << 15);
let gateway: RunningDiscordGatewayFake;
let rest: RunningDiscordFake | undefined;

afterEach(async () => {
  closeGatewayClients();
  await rest?.close();
  rest = undefined;
  await gateway.close();
});

async function start(): Promise<void> {
  gateway = await startDiscordGatewayFake({ port: 0, heartbeatIntervalMs: 60_000 });
}
const control = <T>(path: string, body?: unknown): Promise<T> => controlFake<T>(gateway.controlUrl, path, body);

async function identify(shard?: [number, number]): Promise<Client> {
  const client = await connect(gateway.url);
  client.send({ op: 2, d: { token: "t", intents: INTENTS, properties: {}, ...(shard ? { shard } : {}) } });
  return client;
}

describe("sharding", () => {
  it("sends each guild's events to its shard, (guild_id >> 22) % count", async () => {
    await start();
    const { guilds } = await control<{ guilds: string[] }>("/__guilds", { count: 8 });
    const shards = await Promise.all([0, 1, 2, 3].map((id) => identify([id, 4])));
    const ready = await shards[1]!.until((e) => e.t === "READY");
    expect(ready.d).toMatchObject({ shard: [1, 4] });
    expect((ready.d as { guilds: { id: string }[] }).guilds.map((g) => g.id)).toEqual(
      guilds.filter((g) => Number((BigInt(g) >> 22n) % 4n) === 1),
    );
    for (const guild of guilds)
      await control("/__message", {
        guild_id: guild,
        channel_id: "9",
        content: `to ${guild}`,
        author: { id: "3", username: "alice" },
      });
    for (const [id, client] of shards.entries()) {
      const expected = guilds.filter((g) => Number((BigInt(g) >> 22n) % 4n) === id).map((g) => `to ${g}`);
      await client.until((e) => e.t === "MESSAGE_CREATE" && (e.d as { content: string }).content === expected.at(-1));
      expect(
        client.events.filter((e) => e.t === "MESSAGE_CREATE").map((e) => (e.d as { content: string }).content),
      ).toEqual(expected);
    }
  });

  it("closes an unsharded connection with 4011 past the guild threshold, and an impossible shard with 4010", async () => {
    await start();
    await control("/__config", { threshold: 3 });
    await control("/__guilds", { count: 8 });
    expect(await (await identify()).closed).toBe(4011);
    expect(await (await identify([4, 4])).closed).toBe(4010);
    expect((await control<GatewayFakeState>("/__state")).closes.map((c) => c.code)).toEqual([4011, 4010]);
  });

  it("recommends the shard count through the REST fake's GET /gateway/bot, and counts IDENTIFYs", async () => {
    await start();
    rest = await startDiscordFake({ port: 0, gatewayUrl: gateway.url });
    await control("/__config", { recommendedShards: 4, maxConcurrency: 2 });
    await (await identify([0, 4])).until((e) => e.t === "READY");
    const bot = await (await fetch(`${rest.url}/gateway/bot`, { headers: { Authorization: "Bot t" } })).json();
    expect(bot).toMatchObject({
      url: gateway.url,
      shards: 4,
      session_start_limit: { total: 1000, remaining: 999, max_concurrency: 2 },
    });
  });
});

describe("guild removal, invalid sessions and a dead resume URL", () => {
  it("dispatches GUILD_DELETE with unavailable for an outage and without it for a removal", async () => {
    await start();
    const { guilds } = await control<{ guilds: string[] }>("/__guilds", { count: 1 });
    const client = await identify();
    await control("/__guild_delete", { guild_id: guilds[0], unavailable: true });
    await control("/__guild_delete", { guild_id: guilds[0] });
    await client.until((e) => e.t === "GUILD_DELETE" && !(e.d as { unavailable?: boolean }).unavailable);
    expect(client.events.filter((e) => e.t === "GUILD_DELETE").map((e) => e.d)).toEqual([
      { id: guilds[0], unavailable: true },
      { id: guilds[0] },
    ]);
    expect((await control<GatewayFakeState>("/__state")).guilds).toBe(0);
  });

  it("ends the session on op 9 d:false, so that a RESUME of it is refused", async () => {
    await start();
    const client = await identify();
    const sessionId = ((await client.until((e) => e.t === "READY")).d as { session_id: string }).session_id;
    await control("/__invalid_session", { resumable: false });
    await client.until((e) => e.op === 9);
    const again = await connect(gateway.url);
    again.send({ op: 6, d: { token: "t", session_id: sessionId, seq: 1 } });
    expect(await again.until((e) => e.op === 9)).toEqual({ op: 9, d: false });
  });

  it("stops answering at the resume URL while the configured URL still works", async () => {
    await start();
    const client = await identify();
    const resumeUrl = ((await client.until((e) => e.t === "READY")).d as { resume_gateway_url: string })
      .resume_gateway_url;
    await control("/__resume_url", { dead: true });
    await expect(connect(`${resumeUrl}?v=10&encoding=json`)).rejects.toThrow();
    expect((await identify()).events).toBeDefined();
    await control("/__resume_url", { dead: false });
    await expect(connect(`${resumeUrl}?v=10&encoding=json`)).resolves.toBeDefined();
  });

  it("drops the socket instead of delivering a dispatch when a fault says so, keeping it for the RESUME", async () => {
    await start();
    const client = await identify();
    const ready = (await client.until((e) => e.t === "READY")).d as { session_id: string };
    await control("/__fail", { fault: "drop_after", path: "/dispatch", bodyContains: '"t":"MESSAGE_CREATE"' });
    await control("/__message", {
      guild_id: "2",
      channel_id: "9",
      content: "lost?",
      author: { id: "3", username: "alice" },
    });
    expect(await client.closed).toBe(1006);
    const resumed = await connect(gateway.url);
    resumed.send({ op: 6, d: { token: "t", session_id: ready.session_id, seq: 1 } });
    expect((await resumed.until((e) => e.t === "MESSAGE_CREATE")).d).toMatchObject({ content: "lost?" });
  });
});
