/**
 * @module
 * The stack of one bench:chaos run (./run.ts): bench/load's local stack with QStash on the production schedule and
 * a virtual clock, a fault proxy before Redis, the chaos tool server, a Discord Gateway fake (it carries the askers'
 * reactions to approval questions), and the Worker in workerd logging to this process, its bot connected to that
 * Gateway; with the addresses the sender and the fault plan need, and one `stop` for all of it.
 */
import { Redis } from "@upstash/redis";
import { startDiscordGatewayFake } from "../../dev/fakes/discord-gateway.ts";
import { freePort } from "../../dev/ports.ts";
import type { RunningToolServer } from "../../dev/tools/server.ts";
import { readClock } from "../../test/support/qstash-clock.ts";
import { REDIS_REST_TOKEN, type Stack, startStack } from "../load/stack.ts";
import * as traffic from "../load/traffic.ts";
import { startParleyOn } from "../load/workers.ts";
import { INSTALLABLE, installWorkspace } from "../latency/install.ts";
import { answering, connected } from "../latency/stack.ts";
import type { FaultTargets } from "./faults.ts";
import type { Sender } from "./send.ts";
import { startChaosTools } from "./tool-asks.ts";

export interface ChaosStack {
  stack: Stack;
  tools: RunningToolServer;
  sender: Sender;
  faultTargets: FaultTargets;
  /** The store, past the fault proxy: what the checks read. */
  redis: Redis;
  /**
   * Installs each Slack workspace through the Worker's install routes: each tenant its own bot token, as Slack
   * gives it. Again after the Slack fake's reset, which forgets the tokens it issued.
   */
  install(teams: readonly string[]): Promise<void>;
  /** How many QStash messages are waiting, due now or later. */
  waiting(): Promise<number>;
  stop(): Promise<void>;
}

export interface ChaosStackOptions {
  keyPrefix: string;
  modelRules: unknown[];
  /** The Worker's settings over bench/load's (its tools come on top). */
  settings: Record<string, string>;
  onPublish(body: Buffer): void;
}

export async function startChaosStack(opts: ChaosStackOptions): Promise<ChaosStack> {
  const stack = await startStack({
    modelDelayMs: 0,
    productionSchedule: { mode: "virtual" },
    redisFaults: true,
    modelRules: opts.modelRules,
    onPublish: opts.onPublish,
  });
  stack.gate.open();
  const discord = traffic.discordSigner();
  const at = { ...stack, publicBaseUrl: stack.gate.url, port: stack.workerPort };
  const gateway = await startDiscordGatewayFake({ port: await freePort() });
  const tools = await startChaosTools(await freePort()).catch(async (err: unknown) => {
    await Promise.all([stack.stop(), gateway.close()]);
    throw err;
  });
  const settings = { ...INSTALLABLE, DISCORD_GATEWAY_URL: gateway.url, ...opts.settings, ...tools.settings };
  const parley = await startParleyOn(at, discord, opts.keyPrefix, settings, "log").catch(async (err: unknown) => {
    await Promise.all([stack.stop(), tools.server.close(), gateway.close()]);
    throw err;
  });
  const stop = async () => {
    await parley.stop().catch(() => {});
    await Promise.all([stack.stop(), tools.server.close(), gateway.close()]);
  };
  try {
    await answering(parley.url);
    await connected(parley.url, gateway);
  } catch (err) {
    await stop();
    throw err;
  }
  const slack = stack.fakes.slack.replace(/\/api$/, "");
  return {
    stack,
    tools: tools.server,
    sender: {
      parleyUrl: parley.url,
      publicBaseUrl: stack.gate.url,
      discord,
      discordFake: stack.fakes.discord,
      discordGateway: gateway.controlUrl,
      slackControl: slack,
      twilioFake: stack.fakes.twilio,
      telegramFake: stack.fakes.telegram,
      googleChatFake: stack.fakes.googleChat,
      teamsFake: stack.fakes.teams,
    },
    faultTargets: {
      qstash: stack.qstashUrl,
      redisProxy: stack.redisFaultControlUrl!,
      slack,
      discord: stack.fakes.discord.replace(/\/api\/v10$/, ""),
      twilio: stack.fakes.twilio,
      telegram: stack.fakes.telegram,
      googleChat: stack.fakes.googleChat,
      teams: stack.fakes.teams,
      model: stack.modelUrl.replace(/\/v1$/, ""),
    },
    redis: new Redis({ url: stack.redisBridgeUrl, token: REDIS_REST_TOKEN, enableAutoPipelining: false }),
    async install(teams) {
      for (const team of teams) await installWorkspace(parley.url, slack, team);
    },
    waiting: async () => (await readClock(stack.qstashUrl)).waiting,
    stop,
  };
}
