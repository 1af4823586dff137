/**
 * @module
 * The local stack of bench/latency, on loopback: redis-server behind the REST bridge, the QStash stand-in with
 * quick retries, the Slack and Discord fakes, the local model at the pace asked for, and two Parley Workers in
 * workerd sharing all of it (one key prefix): STREAMING on and off, installable, with `slackTeams` installed.
 */
import { startDiscordFake } from "../../dev/fakes/discord.ts";
import { startSlackFake } from "../../dev/fakes/slack.ts";
import { startTwilioFake } from "../../dev/fakes/twilio.ts";
import { startLocalModel } from "../../dev/local-model/server.ts";
import { freePort } from "../../dev/ports.ts";
import { startQStash } from "../../dev/qstash/server.ts";
import { startRedisServer } from "../../dev/redis-server.ts";
import { startRedisBridge } from "../../dev/upstash-redis/server.ts";
import { REDIS_REST_TOKEN } from "../load/stack.ts";
import type * as traffic from "../load/traffic.ts";
import { startParleyOn } from "../load/workers.ts";
import { INSTALLABLE, installWorkspace } from "./install.ts";

const KEY_PREFIX = "latency";
/** Quick retries: the bench measures answers, not QStash's backoff. */
const RETRY_DELAY_MS = (retried: number) => 250 * 2 ** Math.max(0, retried - 1);

export interface LatencyStack {
  workers: { streaming: string; streamingOff: string };
  fakes: { slack: string; discord: string };
  modelControl: string;
  stop(): Promise<void>;
}

export interface Pace {
  tokens: number;
  tps: number;
  firstMs: number;
}

/**
 * Until the Worker answers: wrangler's `ready` comes before workerd has opened its local storage, and two of them
 * opening the same folder's at once fail (SQLITE_BUSY), leaving the second Worker dead.
 */
async function answering(url: string): Promise<void> {
  for (let tries = 0; ; tries++) {
    const ok = await fetch(`${url}/health`).then((res) => (void res.body?.cancel(), true), () => false);
    if (ok) return;
    if (tries > 300) throw new Error(`the Worker at ${url} never answered`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function startLatencyStack(pace: Pace, discord: traffic.DiscordSigner, slackTeams: readonly string[]): Promise<LatencyStack> {
  const stops: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => {});
  };
  try {
    const redis = await startRedisServer(await freePort());
    stops.push(() => redis.stop());
    const bridge = await startRedisBridge({ port: await freePort(), redisUrl: redis.url, token: REDIS_REST_TOKEN, requireKeyLocking: true });
    stops.push(() => bridge.close());
    // The queue keeps its own redis-server, as in production: its polling never waits behind the store's commands.
    const queueRedis = await startRedisServer(await freePort());
    stops.push(() => queueRedis.stop());
    const qstash = await startQStash({ port: await freePort(), redisUrl: queueRedis.url, retryDelayMs: RETRY_DELAY_MS });
    stops.push(() => qstash.close());
    const slack = await startSlackFake({ port: await freePort() });
    stops.push(() => slack.close());
    const discordFake = await startDiscordFake({ port: await freePort() });
    stops.push(() => discordFake.close());
    const twilio = await startTwilioFake({ port: await freePort() });
    stops.push(() => twilio.close());
    const model = await startLocalModel({ port: await freePort() });
    stops.push(() => model.close());
    const modelControl = model.url.replace(/\/v1$/, "");
    const config = { firstTokenMs: pace.firstMs, tokensPerSecond: pace.tps, answerTokens: pace.tokens };
    await fetch(`${modelControl}/__config`, { method: "POST", body: JSON.stringify(config) });
    const shared = { redisRestUrl: bridge.url, qstashUrl: qstash.url, modelUrl: model.url, fakes: { slack: slack.url, discord: discordFake.url, twilio: twilio.url } };
    const start = async (streaming: boolean) => {
      const port = await freePort();
      // Memory jobs would add model calls and Redis traffic that are not the answer's.
      const overrides = { ...INSTALLABLE, STREAMING: String(streaming), MEMORY_ENABLED: "false", SUMMARY_ENABLED: "false", RATE_LIMIT_REPLIES: "1000" };
      const worker = await startParleyOn({ ...shared, publicBaseUrl: `http://127.0.0.1:${port}`, port }, discord, KEY_PREFIX, overrides);
      stops.push(() => worker.stop());
      await answering(worker.url);
      return worker.url;
    };
    const streaming = await start(true);
    const streamingOff = await start(false);
    const fakes = { slack: slack.url.replace(/\/api$/, ""), discord: discordFake.url.replace(/\/api\/v10$/, "") };
    for (const team of slackTeams) await installWorkspace(streaming, fakes.slack, team);
    return { workers: { streaming, streamingOff }, fakes, modelControl, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
