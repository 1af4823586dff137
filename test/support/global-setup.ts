/**
 * @module
 * Starts the local stack once for the whole test run, on free ports (dev/local-stack.ts): a private redis-server (never
 * the machine's
 * own), the Upstash REST bridge, the QStash stand-in (fast retries), the job tap, the platform fakes and the local
 * model; for tests at production timing (test/support/README.md), a second QStash stand-in on the production retry
 * schedule with a virtual clock, and a fault proxy in front of the bridge. Tests get the addresses through
 * `inject`; Worker tests get most of them as bindings too.
 */
import type { TestProject } from "vitest/node";
import { startGoogleChatFake } from "../../dev/fakes/google-chat.ts";
import { startSlackFake } from "../../dev/fakes/slack.ts";
import { startTeamsFake } from "../../dev/fakes/teams.ts";
import { startTelegramFake } from "../../dev/fakes/telegram.ts";
import { startTwilioFake } from "../../dev/fakes/twilio.ts";
import { startFaultProxy } from "../../dev/faults/proxy.ts";
import { startLocalModel } from "../../dev/local-model/server.ts";
import { buildStack } from "../../dev/local-stack.ts";
import { startQStash } from "../../dev/qstash/server.ts";
import { startToolServer } from "../../dev/tools/server.ts";
import { startRedisBridge } from "../../dev/upstash-redis/server.ts";
import { startVectorStandIn } from "../../dev/upstash-vector/server.ts";
import { startJobTap } from "./job-tap.ts";

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
    /** The Teams fake (Bot Connector, token endpoint, OpenID metadata and keys). */
    teamsUrl: string;
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

export default function setup(project: TestProject): Promise<() => Promise<void>> {
  return buildStack(async (stack) => {
    const redis = await stack.redisServer();
    // Every script of the project must declare allow-key-locking and touch only its KEYS: the bridge enforces both.
    const bridge = await stack.start(startRedisBridge, {
      redisUrl: redis.url,
      token: REDIS_REST_TOKEN,
      requireKeyLocking: true,
    });
    const qstash = await stack.start(startQStash, {
      redisUrl: redis.url,
      keyPrefix: "qstash-test:",
      retryDelayMs: TEST_RETRY_DELAY_MS,
      clock: { mode: "real" },
    });
    const qstashProd = await stack.start(startQStash, {
      redisUrl: redis.url,
      keyPrefix: "qstash-prod-test:",
      clock: { mode: "virtual" },
    });
    const redisProxy = await stack.start(startFaultProxy, { target: bridge.url });
    const tap = await stack.start(({ port }) => startJobTap(port), {});
    const slack = await stack.start(startSlackFake, {});
    const twilio = await stack.start(startTwilioFake, {});
    const telegram = await stack.start(startTelegramFake, {});
    const googleChat = await stack.start(startGoogleChatFake, {});
    const teams = await stack.start(startTeamsFake, {});
    // A short heartbeat so that a missed ACK is noticed within a second.
    const discord = await stack.discord({ gateway: { heartbeatIntervalMs: 500 } });
    // The sharding suite tests layouts, not heartbeats: with up to eight sockets in one process, a beat of 500 ms
    // let one busy second of a full run (this process also runs every other fake) close them all as zombies.
    const sharded = await stack.discord({ gateway: { heartbeatIntervalMs: 5_000 } });
    const model = await stack.start(startLocalModel, {});
    // The Upstash Vector stand-in (a hybrid index with the local models) for recall.
    const vector = await stack.start(startVectorStandIn, {
      redisUrl: redis.url,
      token: VECTOR_REST_TOKEN,
      keyPrefix: "vector-test:",
    });
    const toolServer = await stack.start(startToolServer, {});

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
    project.provide("teamsUrl", teams.url);
    project.provide("discordApiUrl", discord.rest.url);
    project.provide("discordGatewayUrl", discord.gateway.url);
    project.provide("discordGatewayControlUrl", discord.gateway.controlUrl);
    project.provide("discordShardedApiUrl", sharded.rest.url);
    project.provide("discordShardedGatewayUrl", sharded.gateway.url);
    project.provide("discordShardedGatewayControlUrl", sharded.gateway.controlUrl);
    project.provide("modelUrl", model.url);
    project.provide("qstashProdUrl", qstashProd.url);
    project.provide("redisFaultProxyUrl", redisProxy.url);
    project.provide("redisFaultProxyControlUrl", redisProxy.controlUrl);
    project.provide("toolServerUrl", toolServer.url);
    return () => stack.stop();
  });
}
