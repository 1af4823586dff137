/**
 * @module
 * The local stack of bench/latency, on loopback: redis-server behind the REST bridge, the QStash stand-in with
 * quick retries, the Slack, Discord, Telegram and Google Chat fakes, the local model at the pace asked for, and two
 * Parley Workers in workerd sharing all of it (one key prefix): STREAMING on and off, installable, with `slackTeams`
 * installed. The local tool server answers the tool kind's lookups after TOOL_DELAY_MS.
 * Each Worker is a bot of its own on Discord (its own token and fake Gateway, which holds one session per shard),
 * connected before the bench starts; the REST fake echoes a bot's channel posts to its own Gateway, as Discord does.
 */
import { startDiscordFake } from "../../dev/fakes/discord.ts";
import { type RunningDiscordGatewayFake, startDiscordGatewayFake } from "../../dev/fakes/discord-gateway.ts";
import { startGoogleChatFake } from "../../dev/fakes/google-chat.ts";
import { startTeamsFake } from "../../dev/fakes/teams.ts";
import { startSlackFake } from "../../dev/fakes/slack.ts";
import { startTelegramFake } from "../../dev/fakes/telegram.ts";
import { startTwilioFake } from "../../dev/fakes/twilio.ts";
import { startLocalModel } from "../../dev/local-model/server.ts";
import { buildStack } from "../../dev/local-stack.ts";
import { freePort } from "../../dev/ports.ts";
import { startQStash } from "../../dev/qstash/server.ts";
import { startToolServer } from "../../dev/tools/server.ts";
import { devToolSettings } from "../../dev/tools/settings.ts";
import { startRedisBridge } from "../../dev/upstash-redis/server.ts";
import { GOOGLE_CHAT_ACCOUNT } from "../load/google-chat-traffic.ts";
import { REDIS_REST_TOKEN } from "../load/stack.ts";
import type * as traffic from "../load/traffic.ts";
import { startParleyOn } from "../load/workers.ts";
import { INSTALLABLE, installWorkspace } from "./install.ts";

const KEY_PREFIX = "latency";
/** How long the tool kind's lookup takes at the tool server, as a deployer's endpoint might. */
export const TOOL_DELAY_MS = 200;
/** Quick retries: the bench measures answers, not QStash's backoff. */
const RETRY_DELAY_MS = (retried: number) => 250 * 2 ** Math.max(0, retried - 1);

type Both<T> = { streaming: T; streamingOff: T };

export interface LatencyStack {
  workers: Both<string>;
  /** Each Worker's bot's Gateway: dispatches a MESSAGE_CREATE, returns when (epoch ms). */
  gateways: Both<(message: object) => number>;
  fakes: { slack: string; discord: string; telegram: string; googleChat: string; teams: string };
  modelControl: string;
  stop(): Promise<void>;
}

export interface Pace {
  tokens: number;
  tps: number;
  firstMs: number;
}

/**
 * Until the Worker answers: wrangler's `ready` comes before workerd has opened its local storage.
 */
export async function answering(url: string): Promise<void> {
  for (let tries = 0; ; tries++) {
    const ok = await fetch(`${url}/health`).then(
      async (res) => {
        await res.body?.cancel();
        return true;
      },
      () => false,
    );
    if (ok) return;
    if (tries > 300) throw new Error(`the Worker at ${url} never answered`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What the cron (every minute in production) does: workerd fires the scheduled handler only when asked. */
const CRON_MS = 60_000;
const cron = async (workerUrl: string) => (await fetch(`${workerUrl}/cdn-cgi/local/scheduled`)).body?.cancel();

/** Until the Worker's bot holds a session on `gateway` (the cron wakes the Gateway Durable Object). */
export async function connected(workerUrl: string, gateway: RunningDiscordGatewayFake): Promise<void> {
  await cron(workerUrl);
  for (let tries = 0; ; tries++) {
    const state = (await (await fetch(`${gateway.controlUrl}/__state`)).json()) as {
      connected: boolean;
      sessionId: string | null;
    };
    if (state.connected && state.sessionId) return;
    if (tries > 300) throw new Error(`the Worker at ${workerUrl} never connected to its Gateway`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function startLatencyStack(
  pace: Pace,
  discord: traffic.DiscordSigner,
  slackTeams: readonly string[],
  toolTeams: readonly string[],
): Promise<LatencyStack> {
  return buildStack(async (stack) => {
    const redis = await stack.redisServer();
    const bridge = await stack.start(startRedisBridge, {
      redisUrl: redis.url,
      token: REDIS_REST_TOKEN,
      requireKeyLocking: true,
    });
    // The queue keeps its own redis-server, as in production: its polling never waits behind the store's commands.
    const queueRedis = await stack.redisServer();
    const qstash = await stack.start(startQStash, { redisUrl: queueRedis.url, retryDelayMs: RETRY_DELAY_MS });
    const slack = await stack.start(startSlackFake, {});
    const gateways: Both<RunningDiscordGatewayFake> = {
      streaming: await stack.start(startDiscordGatewayFake, {}),
      streamingOff: await stack.start(startDiscordGatewayFake, {}),
    };
    const gatewayOfChannel = new Map<string, RunningDiscordGatewayFake>();
    const onChannelMessage = (message: { channel_id: string }) =>
      void gatewayOfChannel.get(message.channel_id)?.dispatchMessage(message);
    const discordFake = await stack.start(startDiscordFake, { onChannelMessage });
    const twilio = await stack.start(startTwilioFake, {});
    const telegram = await stack.start(startTelegramFake, {});
    const googleChat = await stack.start(startGoogleChatFake, { serviceAccountJson: GOOGLE_CHAT_ACCOUNT });
    // The Worker's Teams settings name it (bench/load/workers.ts).
    const teams = await stack.start(startTeamsFake, {});
    const model = await stack.start(startLocalModel, {});
    const modelControl = model.url.replace(/\/v1$/, "");
    const config = { firstTokenMs: pace.firstMs, tokensPerSecond: pace.tps, answerTokens: pace.tokens };
    await fetch(`${modelControl}/__config`, { method: "POST", body: JSON.stringify(config) });
    const tools = await stack.start(startToolServer, {});
    await fetch(`${tools.url}/__config`, { method: "POST", body: JSON.stringify({ delayMs: TOOL_DELAY_MS }) });
    // Only the tool kind's workspaces are offered the lookup: the other kinds' prompts stay as they were.
    const toolSettings = {
      ...devToolSettings(tools.url),
      TOOLS: JSON.stringify(Object.fromEntries(toolTeams.map((team) => [`slack:${team}`, ["lookup_ticket"]]))),
    };
    const shared = {
      redisRestUrl: bridge.url,
      qstashUrl: qstash.url,
      modelUrl: model.url,
      fakes: {
        slack: slack.url,
        discord: discordFake.url,
        twilio: twilio.url,
        telegram: telegram.url,
        googleChat: googleChat.url,
        teams: teams.url,
      },
    };
    const start = async (streaming: boolean, gateway: RunningDiscordGatewayFake) => {
      const port = await freePort();
      const bot = { DISCORD_BOT_TOKEN: `bench-discord-${streaming ? "on" : "off"}`, DISCORD_GATEWAY_URL: gateway.url };
      // Memory jobs would add model calls and Redis traffic that are not the answer's.
      const overrides = {
        ...INSTALLABLE,
        ...bot,
        ...toolSettings,
        STREAMING: String(streaming),
        MEMORY_ENABLED: "false",
        SUMMARY_ENABLED: "false",
        RATE_LIMIT_REPLIES: "1000",
      };
      const worker = await startParleyOn(
        { ...shared, publicBaseUrl: `http://127.0.0.1:${port}`, port },
        discord,
        KEY_PREFIX,
        overrides,
      );
      stack.keep(() => worker.stop());
      await answering(worker.url);
      await connected(worker.url, gateway);
      return worker.url;
    };
    const streaming = await start(true, gateways.streaming);
    const streamingOff = await start(false, gateways.streamingOff);
    // Without it a Gateway connection that drops stays down, where production's cron brings it back within a minute.
    const crons = setInterval(() => void Promise.all([cron(streaming), cron(streamingOff)]).catch(() => {}), CRON_MS);
    stack.keep(async () => clearInterval(crons));
    const dispatchTo = (gateway: RunningDiscordGatewayFake) => (message: object) => {
      gatewayOfChannel.set(String((message as { channel_id: unknown }).channel_id), gateway);
      gateway.dispatchMessage(message);
      return Date.now();
    };
    const fakes = {
      slack: slack.url.replace(/\/api$/, ""),
      discord: discordFake.url.replace(/\/api\/v10$/, ""),
      telegram: telegram.url,
      googleChat: googleChat.url,
      teams: teams.url,
    };
    for (const team of slackTeams) await installWorkspace(streaming, fakes.slack, team);
    const dispatch = { streaming: dispatchTo(gateways.streaming), streamingOff: dispatchTo(gateways.streamingOff) };
    return { workers: { streaming, streamingOff }, gateways: dispatch, fakes, modelControl, stop: () => stack.stop() };
  });
}
