import { env as envBindings } from "cloudflare:workers";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { DISCORD_FAKE_BOT } from "../../dev/fakes/discord.ts";
import type { GatewayFakeState } from "../../dev/fakes/discord-gateway.ts";
import { shardOf } from "../../dev/fakes/discord-gateway/sharding.ts";
import { shardObjectName } from "../../functions/discord-gateway.ts";
import { createGatewayConnection, createShardCoordinator } from "../../functions/discord-gateway-feed.ts";
import type { GatewayConnection } from "../../lib/platforms/discord/gateway/connection.ts";
import { IdentifyTurns } from "../../lib/platforms/discord/gateway/identify-turns.ts";
import type { ShardTuple } from "../../lib/platforms/discord/gateway/session-io.ts";
import type {
  ShardCoordinator,
  ShardDirectory,
  ShardLayoutState,
} from "../../lib/platforms/discord/gateway/shard-layout.ts";
import { controlGateway, discordCalls, postThroughGateway } from "../support/discord.ts";
import { memoryGatewayStorage } from "../support/gateway-storage.ts";
import { qstashLaneUrl } from "../support/qstash-clock.ts";
import { eventually, settle, startJobPump, suiteEnv, type JobPump } from "../support/worker.ts";

// This suite has its own Gateway fake and REST fake: every live layout receives a guild's events, so another
// suite's unsharded session would answer these guilds too.
const SUITE = "discordshards";
const bindings = envBindings as unknown as Record<string, string>;
const env = suiteEnv(SUITE, {
  DISCORD_BOT_TOKEN: "test-discord-bot-token",
  DISCORD_API_BASE_URL: bindings.DISCORD_SHARDED_API_BASE_URL!,
  DISCORD_GATEWAY_URL: bindings.DISCORD_SHARDED_GATEWAY_URL!,
  QSTASH_URL: qstashLaneUrl(bindings.QSTASH_URL!, SUITE),
});
const CONTROL = bindings.DISCORD_SHARDED_GATEWAY_CONTROL_URL!;
const API = String(env.DISCORD_API_BASE_URL);
const alice = { id: "230000000000000011", name: "Alice" };
const BOT = { id: DISCORD_FAKE_BOT.userId, username: DISCORD_FAKE_BOT.username.toLowerCase() };
const GUILDS = 8;
let pump: JobPump;
let logs: { mock: { calls: unknown[][] }; mockRestore(): void };
let seq = 0;
let guilds: string[];

/**
 * The shard objects, in this process: each a connection with its own storage; IDENTIFY turns as the coordinator hands
 * them out.
 */
class ShardsInProcess implements ShardDirectory {
  readonly connections = new Map<string, GatewayConnection>();
  #lastTurn = new Map<number, number>();
  #recent: number[] = [];
  #turns = new IdentifyTurns({
    last: async (bucket) => this.#lastTurn.get(bucket),
    setLast: async (bucket, at) => void this.#lastTurn.set(bucket, at),
    recent: async () => this.#recent,
    setRecent: async (times) => void (this.#recent = times),
  });

  async ensure(shard: ShardTuple, maxConcurrency: number) {
    const name = shardObjectName(shard);
    let connection = this.connections.get(name);
    if (!connection) {
      const identifyTurn = async () => settle((await this.#turns.reserve(shard[0], maxConcurrency, Date.now())) ?? 0);
      connection = createGatewayConnection(env, memoryGatewayStorage(env), { shard, identifyTurn })!;
      this.connections.set(name, connection);
    }
    await connection.start();
    return connection.status();
  }

  async retire(shard: ShardTuple) {
    const name = shardObjectName(shard);
    await this.connections.get(name)?.retire();
    this.connections.delete(name);
  }

  async retireAll() {
    await Promise.all([...this.connections.values()].map((c) => c.retire()));
    this.connections.clear();
  }
}

let shards: ShardsInProcess;
let coordinator: ShardCoordinator;

beforeAll(() => {
  logs = vi.spyOn(console, "log");
  pump = startJobPump(env, SUITE);
});
afterAll(async () => {
  await pump.stop();
  logs.mockRestore();
});
beforeEach(async () => {
  await controlGateway(CONTROL, "/__reset");
  // Discord refuses a second IDENTIFY in a concurrency bucket within 5 s: so does the fake here.
  await controlGateway(CONTROL, "/__config", { maxConcurrency: 2, enforceIdentifyConcurrency: true });
  const created = await fetch(`${CONTROL}/__guilds`, { method: "POST", body: JSON.stringify({ count: GUILDS }) });
  guilds = ((await created.json()) as { guilds: string[] }).guilds;
  shards = new ShardsInProcess();
  let state: ShardLayoutState | undefined;
  // Every tick asks Discord again (an hour in production), so a changed recommendation is seen at once.
  coordinator = createShardCoordinator(
    env,
    { load: async () => state, save: async (s) => void (state = structuredClone(s)) },
    shards,
    { checkIntervalMs: 0 },
  )!;
});
afterEach(() => shards.retireAll());

const recommend = (count: number) => controlGateway(CONTROL, "/__config", { recommendedShards: count });
const fakeState = async () => (await (await fetch(`${CONTROL}/__state`)).json()) as GatewayFakeState;
const allReady = () => [...shards.connections.values()].every((c) => c.status().phase === "ready");
const posts = (channelId: string) => discordCalls(API, { route: "channel_message", channelId });

function newChannel(): string {
  seq += 1;
  return `43${String(Date.now()).slice(-10)}${String(seq).padStart(4, "0")}`;
}

/** A mention in a new channel of each guild; resolves with the channels. */
async function askEveryGuild(marker: string): Promise<string[]> {
  return Promise.all(
    guilds.map(async (guildId) => {
      const channelId = newChannel();
      const content = `<@${BOT.id}> which shard am I on? ${marker}-${channelId}`;
      await postThroughGateway(CONTROL, {
        guildId,
        channelId,
        author: alice,
        content,
        mentions: [{ id: BOT.id, username: BOT.username }],
      });
      return channelId;
    }),
  );
}

async function expectEachAnsweredOnce(channels: string[]): Promise<void> {
  await eventually(
    async () => (await Promise.all(channels.map(posts))).every((p) => p.length >= 1),
    30_000,
    "an answer in every channel",
  );
  await settle(1_500);
  expect((await Promise.all(channels.map(posts))).map((p) => p.length)).toEqual(channels.map(() => 1));
}

describe("the Discord Gateway in shards", () => {
  it("runs the 4 shards Discord recommends, IDENTIFY spaced per concurrency bucket, each answering its guilds' messages once", async () => {
    await recommend(4);
    const state = await coordinator.tick();
    expect(state.active).toEqual({ count: 4, maxConcurrency: 2 });
    await eventually(async () => shards.connections.size === 4 && allReady(), 20_000, "4 shards ready");
    const channels = await askEveryGuild("four");
    await expectEachAnsweredOnce(channels);
    const fake = await fakeState();
    expect(
      fake.shards
        .filter((s) => s.connected)
        .map((s) => s.shard)
        .sort(),
    ).toEqual([
      [0, 4],
      [1, 4],
      [2, 4],
      [3, 4],
    ]);
    // Every shard had guilds to answer for, and no IDENTIFY was refused for going too fast.
    expect(new Set(guilds.map((g) => shardOf(g, 4))).size).toBe(4);
    expect(fake.identifyRateLimited).toBe(0);
    expect(fake.closes.filter((c) => c.code === 4011)).toEqual([]);
  });

  it("spaces the IDENTIFYs of one bucket by Discord's 5 s even when one shard's HELLO comes seconds late", async () => {
    // One bucket: each IDENTIFY needs its own turn. The first socket's HELLO is 2.5 s late (a slow gateway node);
    // a turn taken before the connect would let the next shard IDENTIFY 3.5 s after it, and Discord refuses that.
    await controlGateway(CONTROL, "/__config", { maxConcurrency: 1, helloDelaysMs: [2_500] });
    await recommend(2);
    expect((await coordinator.tick()).active?.count).toBe(2);
    await eventually(async () => shards.connections.size === 2 && allReady(), 30_000, "2 shards ready");
    expect((await fakeState()).identifyRateLimited).toBe(0);
    await expectEachAnsweredOnce(await askEveryGuild("slow-hello"));
  });

  it("after Discord closes a connection with 4011 (too many servers for one shard), asks at once and moves to the recommended shards", async () => {
    // Discord's 2,500 servers per connection, scaled down: 3 here, for 8 servers.
    await controlGateway(CONTROL, "/__config", { threshold: 3, recommendedShards: 1 });
    let state: ShardLayoutState | undefined;
    // The production interval (an hour): only the 4011 can make the coordinator ask again this soon.
    const hourly = createShardCoordinator(
      env,
      { load: async () => state, save: async (s) => void (state = structuredClone(s)) },
      shards,
    )!;
    expect((await hourly.tick()).active?.count).toBe(1);
    await eventually(async () => (await fakeState()).closes.some((c) => c.code === 4011), 10_000, "the 4011");
    await eventually(
      async () => shards.connections.get(shardObjectName([0, 1]))?.status().fatalCloseCode === 4011,
      10_000,
      "the shard to stop",
    );
    await recommend(4);
    expect(await hourly.tick()).toMatchObject({ checkDue: true });
    expect((await hourly.tick()).next?.count).toBe(4);
    await eventually(async () => (await hourly.tick()).active?.count === 4, 30_000, "the 4-shard layout to take over");
    await expectEachAnsweredOnce(await askEveryGuild("after-4011"));
  });

  it("reshards from 2 to 4 without losing or repeating a message: the old shards keep answering until every new one is ready", async () => {
    await recommend(2);
    expect((await coordinator.tick()).active?.count).toBe(2);
    await eventually(async () => shards.connections.size === 2 && allReady(), 20_000, "2 shards ready");
    const before = await askEveryGuild("before");

    await recommend(4);
    const starting = await coordinator.tick();
    expect(starting).toMatchObject({ active: { count: 2 }, next: { count: 4 } });
    // Asked while the new shards identify: the old ones receive these, the new ones too once they are up.
    const during = await askEveryGuild("during");
    await eventually(
      async () => (await coordinator.tick()).active?.count === 4,
      30_000,
      "the 4-shard layout to take over",
    );
    expect([...shards.connections.keys()].sort()).toEqual([0, 1, 2, 3].map((id) => shardObjectName([id, 4])).sort());
    const after = await askEveryGuild("after");

    await expectEachAnsweredOnce([...before, ...during, ...after]);
    const fake = await fakeState();
    // The old sessions were ended (1000); the fake may still list them, disconnected, until it sees the socket go.
    expect(
      fake.shards
        .filter((s) => s.connected)
        .map((s) => s.shard)
        .sort(),
    ).toEqual([
      [0, 4],
      [1, 4],
      [2, 4],
      [3, 4],
    ]);
    expect(fake.undelivered).toBe(0);
    expect(fake.identifyRateLimited).toBe(0);
    expect(
      logs.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('"event":"discord_gateway_resharded"')),
    ).toHaveLength(1);
  });
});
