/**
 * @module
 * Starts the local stack once for the whole test run, on free ports: a private redis-server (never the machine's
 * own), the Upstash REST bridge, the QStash stand-in (fast retries), the job tap, the platform fakes and the local
 * model; for tests at production timing (test/support/README.md), a second QStash stand-in on the production retry
 * schedule with a virtual clock, and a fault proxy in front of the bridge. Tests get the addresses through
 * `inject`; Worker tests get most of them as bindings too.
 */
import type { TestProject } from "vitest/node";
import { startLocalModel } from "../../dev/local-model/server.ts";
import { freePort } from "../../dev/ports.ts";
import { startQStash } from "../../dev/qstash/server.ts";
import { startVectorStandIn } from "../../dev/upstash-vector/server.ts";
import { startRedisServer } from "../../dev/redis-server.ts";
import { startSlackFake } from "../../dev/fakes/slack.ts";
import { startTwilioFake } from "../../dev/fakes/twilio.ts";
import { startTelegramFake } from "../../dev/fakes/telegram.ts";
import { startGoogleChatFake } from "../../dev/fakes/google-chat.ts";
import { startDiscordFake } from "../../dev/fakes/discord.ts";
import { startDiscordGatewayFake } from "../../dev/fakes/discord-gateway.ts";
import { startRedisBridge } from "../../dev/upstash-redis/server.ts";
import { startFaultProxy } from "../../dev/faults/proxy.ts";
import { startJobTap } from "./job-tap.ts";
import { startToolServer } from "../../dev/tools/server.ts";

export const REDIS_REST_TOKEN = "test-redis-rest-token";
export const VECTOR_REST_TOKEN = "test-vector-rest-token";
/** Retries after 0.2 s, 0.4 s, 0.8 s: the production backoff would make every retry test wait minutes. */
const TEST_RETRY_DELAY_MS = (retried: number) => 200 * 2 ** Math.max(0, retried - 1);

declare module "vitest" {
  export interface ProvidedContext {
    redisUrl: string;
    redisRestUrl: string;
    redisRestToken: string;
    qstashUrl: string;
    vectorRestUrl: string;
    vectorRestToken: string;
    jobTapUrl: string;
    slackApiUrl: string;
    twilioApiUrl: string;
    telegramApiUrl: string;
    /** The Google Chat fake (Chat API, token endpoint, key sets) and its service account's JSON key. */
    googleChatUrl: string;
    googleChatServiceAccount: string;
    discordApiUrl: string;
    discordGatewayUrl: string;
    discordGatewayControlUrl: string;
    /**
     * A second Gateway fake and its REST fake, for the sharding suite: its layouts would reach other suites' sessions.
     */
    discordShardedApiUrl: string;
    discordShardedGatewayUrl: string;
    discordShardedGatewayControlUrl: string;
    modelUrl: string;
    /**
     * The production-schedule QStash with a virtual clock; a suite uses its own lane `${qstashProdUrl}/lanes/<suite>`.
     */
    qstashProdUrl: string;
    /** The fault proxy in front of the Redis bridge; a suite uses `${redisFaultProxyUrl}/lanes/<suite>`. */
    redisFaultProxyUrl: string;
    /** The control base of the proxy's default lane (`/__fail`, `/__faults`, `/__reset`). */
    redisFaultProxyControlUrl: string;
    /** The local tool server (dev/tools): HTTP tools and the search stand-in. */
    toolServerUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const redis = await startRedisServer(await freePort());
  const stops: (() => Promise<void>)[] = [() => redis.stop()];
  try {
    // Every script of the project must declare allow-key-locking and touch only its KEYS: the bridge enforces both.
    const bridge = await startRedisBridge({
      port: await freePort(),
      redisUrl: redis.url,
      token: REDIS_REST_TOKEN,
      requireKeyLocking: true,
    });
    stops.unshift(() => bridge.close());
    const qstash = await startQStash({
      port: await freePort(),
      redisUrl: redis.url,
      keyPrefix: "qstash-test:",
      retryDelayMs: TEST_RETRY_DELAY_MS,
      clock: { mode: "real" },
    });
    stops.unshift(() => qstash.close());
    const qstashProd = await startQStash({
      port: await freePort(),
      redisUrl: redis.url,
      keyPrefix: "qstash-prod-test:",
      clock: { mode: "virtual" },
    });
    stops.unshift(() => qstashProd.close());
    const redisProxy = await startFaultProxy({ port: await freePort(), target: bridge.url });
    stops.unshift(() => redisProxy.close());
    const tap = await startJobTap(await freePort());
    stops.unshift(() => tap.close());
    const slack = await startSlackFake({ port: await freePort() });
    stops.unshift(() => slack.close());
    const twilio = await startTwilioFake({ port: await freePort() });
    stops.unshift(() => twilio.close());
    const telegram = await startTelegramFake({ port: await freePort() });
    stops.unshift(() => telegram.close());
    const googleChat = await startGoogleChatFake({ port: await freePort() });
    stops.unshift(() => googleChat.close());
    // A short heartbeat so that a missed ACK is noticed within a second; the REST fake echoes the bot's own
    // channel posts through the Gateway, as Discord does.
    const gateway = await startDiscordGatewayFake({ port: await freePort(), heartbeatIntervalMs: 500 });
    stops.unshift(() => gateway.close());
    const discord = await startDiscordFake({
      port: await freePort(),
      gatewayUrl: gateway.url,
      onChannelMessage: gateway.dispatchMessage,
    });
    gateway.onWritten(discord.rememberMessage);
    stops.unshift(() => discord.close());
    const shardedGateway = await startDiscordGatewayFake({ port: await freePort(), heartbeatIntervalMs: 500 });
    stops.unshift(() => shardedGateway.close());
    const shardedDiscord = await startDiscordFake({
      port: await freePort(),
      gatewayUrl: shardedGateway.url,
      onChannelMessage: shardedGateway.dispatchMessage,
    });
    shardedGateway.onWritten(shardedDiscord.rememberMessage);
    stops.unshift(() => shardedDiscord.close());
    const model = await startLocalModel({ port: await freePort() });
    stops.unshift(() => model.close());
    // The Upstash Vector stand-in (a hybrid index with the local models) for recall.
    const vector = await startVectorStandIn({
      port: await freePort(),
      redisUrl: redis.url,
      token: VECTOR_REST_TOKEN,
      keyPrefix: "vector-test:",
    });
    stops.unshift(() => vector.close());
    const toolServer = await startToolServer({ port: await freePort() });
    stops.unshift(() => toolServer.close());

    project.provide("redisUrl", redis.url);
    project.provide("redisRestUrl", bridge.url);
    project.provide("redisRestToken", REDIS_REST_TOKEN);
    project.provide("qstashUrl", qstash.url);
    project.provide("vectorRestUrl", vector.url);
    project.provide("vectorRestToken", VECTOR_REST_TOKEN);
    project.provide("jobTapUrl", tap.url);
    project.provide("slackApiUrl", slack.url);
    project.provide("twilioApiUrl", twilio.url);
    project.provide("telegramApiUrl", telegram.url);
    project.provide("googleChatUrl", googleChat.url);
    project.provide("googleChatServiceAccount", googleChat.serviceAccountJson);
    project.provide("discordApiUrl", discord.url);
    project.provide("discordGatewayUrl", gateway.url);
    project.provide("discordGatewayControlUrl", gateway.controlUrl);
    project.provide("discordShardedApiUrl", shardedDiscord.url);
    project.provide("discordShardedGatewayUrl", shardedGateway.url);
    project.provide("discordShardedGatewayControlUrl", shardedGateway.controlUrl);
    project.provide("modelUrl", model.url);
    project.provide("qstashProdUrl", qstashProd.url);
    project.provide("redisFaultProxyUrl", redisProxy.url);
    project.provide("redisFaultProxyControlUrl", redisProxy.controlUrl);
    project.provide("toolServerUrl", toolServer.url);
  } catch (err) {
    for (const stop of stops) await stop();
    throw err;
  }
  return async () => {
    for (const stop of stops) await stop();
  };
}
