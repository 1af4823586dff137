/**
 * A bot in many guilds: the shard count and IDENTIFY concurrency from GET /gateway/bot, one connection per shard
 * started bucket by bucket, and every shard's guilds answered. Against a Discord (REST + Gateway) of its own.
 */
import { env as envBindings } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GatewayFakeState } from "../../dev/fakes/discord-gateway.ts";
import { shardOf } from "../../dev/fakes/discord-gateway/sharding.ts";
import { DISCORD_FAKE_BOT } from "../../dev/fakes/discord.ts";
import { createGatewayConnection, startInGroups } from "../../functions/discord-gateway.ts";
import type { GatewayConnection } from "../../lib/platforms/discord/gateway/connection.ts";
import type { GatewaySnapshot } from "../../lib/platforms/discord/gateway/session.ts";
import { fetchGatewayBot, identifyGroups } from "../../lib/platforms/discord/gateway/shards.ts";
import { discordCalls, postThroughGateway, snowflake } from "../support/discord.ts";
import { eventually, startJobPump, suiteEnv, type JobPump } from "../support/worker.ts";

const SUITE = "discordshards";
const bindings = envBindings as unknown as Record<string, string>;
const API = bindings.DISCORD_SHARDED_API_URL!;
const CONTROL = bindings.DISCORD_SHARDED_GATEWAY_CONTROL_URL!;
const TOKEN = "test-discord-bot-token";
const env = suiteEnv(SUITE, { DISCORD_BOT_TOKEN: TOKEN, DISCORD_API_BASE_URL: API, DISCORD_GATEWAY_URL: CONTROL.replace(/^http/, "ws") });
const BOT = { id: DISCORD_FAKE_BOT.userId, username: DISCORD_FAKE_BOT.username.toLowerCase() };
const connections: GatewayConnection[] = [];
let pump: JobPump;

const control = async <T>(path: string, body?: unknown): Promise<T> =>
  (await fetch(`${CONTROL}${path}`, body === undefined ? {} : { method: "POST", body: JSON.stringify(body) })).json() as Promise<T>;

function memoryStorage() {
  let stored: GatewaySnapshot | undefined;
  return {
    snapshot: { get: async () => stored, put: async (s: GatewaySnapshot) => void (stored = s) },
    pending: { all: async () => [], put: async () => undefined, delete: async () => undefined, wakeAt: async () => undefined },
  };
}

beforeAll(() => {
  pump = startJobPump(env, SUITE);
});
afterAll(async () => {
  for (const c of connections) c.shutdown();
  await pump.stop();
});

describe("a bot in guilds spread over 4 shards", () => {
  it("connects each shard as GET /gateway/bot says, two IDENTIFY buckets apart, and answers every shard's guilds", async () => {
    // Discord refuses a second IDENTIFY in one bucket within 5 s: the fake does too, here.
    await control("/__config", { recommendedShards: 4, maxConcurrency: 2, enforceIdentifyConcurrency: true });
    const { guilds } = await control<{ guilds: string[] }>("/__guilds", { count: 8 });

    const groups = identifyGroups(await fetchGatewayBot(API, TOKEN));
    expect(groups).toEqual([[[0, 4], [1, 4]], [[2, 4], [3, 4]]]);
    await startInGroups(groups, async (shard) => {
      const connection = createGatewayConnection(env, memoryStorage(), shard)!;
      connections.push(connection);
      await connection.start();
      return connection.status().phase;
    });
    await eventually(async () => connections.every((c) => c.status().phase === "ready"), 15_000, "every shard to be ready");
    const state = await control<GatewayFakeState>("/__state");
    expect(state.identifyRateLimited).toBe(0);
    expect(state.shards.map((s) => s.shard).sort()).toEqual([[0, 4], [1, 4], [2, 4], [3, 4]]);

    const byShard = [0, 1, 2, 3].map((k) => guilds.find((g) => shardOf(g, 4) === k)!);
    const channels = byShard.map(() => snowflake());
    await Promise.all(
      byShard.map((guildId, k) =>
        postThroughGateway(CONTROL, {
          guildId,
          channelId: channels[k]!,
          author: { id: snowflake(), name: `Person${k}` },
          content: `<@${BOT.id}> hello from shard ${k}`,
          mentions: [{ id: BOT.id, username: BOT.username }],
        }),
      ),
    );
    for (const channelId of channels) {
      await eventually(async () => (await discordCalls(API, { route: "channel_message", channelId })).length === 1, 20_000, `the answer in ${channelId}`);
    }
    expect((await control<GatewayFakeState>("/__state")).undelivered).toBe(0);
  });
});
