/**
 * @module
 * The local stack of bench/load, in-process and on loopback: the store's own redis-server (so its command
 * statistics are the Worker's alone), a second one for the QStash stand-in, the REST bridge with a request
 * counter, QStash behind a proxy that counts publishes per place, a gate in front of the Worker for job
 * deliveries, the platform fakes (Google Chat's with the bench's service account) and the local model answering
 * after a set delay. bench/chaos asks for QStash on the production schedule with a virtual clock and for a fault
 * proxy between the Worker and the bridge.
 */
import { Redis as RedisClient } from "ioredis";
import { startDiscordFake } from "../../dev/fakes/discord.ts";
import { startGoogleChatFake } from "../../dev/fakes/google-chat.ts";
import { startSlackFake } from "../../dev/fakes/slack.ts";
import { startTeamsFake } from "../../dev/fakes/teams.ts";
import { startTelegramFake } from "../../dev/fakes/telegram.ts";
import { startTwilioFake } from "../../dev/fakes/twilio.ts";
import { startFaultProxy } from "../../dev/faults/proxy.ts";
import { startLocalModel } from "../../dev/local-model/server.ts";
import { buildStack } from "../../dev/local-stack.ts";
import { freePort } from "../../dev/ports.ts";
import type { ClockSetting } from "../../dev/qstash/clock.ts";
import { startQStash } from "../../dev/qstash/server.ts";
import { startToolServer } from "../../dev/tools/server.ts";
import { startRedisBridge } from "../../dev/upstash-redis/server.ts";
import { adapters } from "../../lib/platforms/index.ts";
import { jobSchemaFor } from "../../lib/queue/job.ts";
import { openJob } from "../../lib/queue/sealed-job.ts";
import { Keyring } from "../../lib/secrets/keyring.ts";
import { Sealer } from "../../lib/secrets/seal.ts";
import { GOOGLE_CHAT_ACCOUNT } from "./google-chat-traffic.ts";
import { type RunningProxy, startProxy } from "./proxy.ts";
import { commandCalls } from "./stats.ts";

export const REDIS_REST_TOKEN = "bench-redis-rest-token";
/** The Worker's TOKEN_ENCRYPTION_KEY on the bench: the bench opens the sealed fields of the jobs it counts. */
export const TOKEN_ENCRYPTION_KEY = "M+e7RUJyulaG3rY9rqXBRhir6C14DMhIkwLQGzqqdbE=";
const PUBLISH_PATH = "/v2/publish/";
/** Platform clocks may run ahead of ours. */
const MESSAGE_CLOCK_SLACK_MS = 86_400_000;
/** Quick retries: a bench that waits QStash's production backoff measures the backoff. */
const RETRY_DELAY_MS = (retried: number) => 250 * 2 ** Math.max(0, retried - 1);

export interface StackOptions {
  modelDelayMs: number;
  /** QStash on the production retry schedule with this clock, instead of quick retries on the wall clock. */
  productionSchedule?: ClockSetting;
  /** Put a fault proxy (dev/faults/proxy.ts) between the Worker and the bridge. */
  redisFaults?: boolean;
  /** Sees the body of every job published. */
  onPublish?: (body: Buffer) => void;
  /** Every answer takes one tool round: the local model asks for a lookup at the local tool server first. */
  toolRound?: boolean;
  /** The local model's scripted rules, before its catch-all one (bench/chaos: the calls of a confirm tool). */
  modelRules?: unknown[];
}

export interface Stack {
  /** Where the Worker reaches Redis: the bridge, or the fault proxy in front of it. */
  redisRestUrl: string;
  /** The bridge itself, past any fault proxy. */
  redisBridgeUrl: string;
  /** The fault proxy's control base, with `redisFaults`. */
  redisFaultControlUrl?: string;
  qstashUrl: string;
  /** PUBLIC_BASE_URL of the Worker: QStash delivers jobs here, and the gate passes them on once opened. */
  gate: RunningProxy;
  workerPort: number;
  fakes: { slack: string; discord: string; twilio: string; telegram: string; googleChat: string; teams: string };
  modelUrl: string;
  /** The local tool server, with `toolRound`. */
  toolServerUrl?: string;
  /** REST requests the bridge has accepted so far. */
  bridgeRequests(): number;
  /** Commands the store's redis-server has run so far, per command (the bench's own INFO left out). */
  redisCommands(): Promise<Map<string, number>>;
  /** Messages stored in the conversation logs matching `pattern`. */
  storedMessages(pattern: string): Promise<number>;
  /** Empties redis-server's script cache, as a restart or a failover would. */
  flushScripts(): Promise<void>;
  /** Publishes per place (reply target) so far, counted at the proxy in front of QStash. */
  publishes(): Promise<Map<string, number>>;
  stop(): Promise<void>;
}

const jobSealer = new Sealer(new Keyring(TOKEN_ENCRYPTION_KEY), "job-payload");
const jobSchema = jobSchemaFor(adapters);

/** Where a published job answers: its reply target is among the sealed personal fields (lib/queue/sealed-job.ts). */
async function placeOfJob(body: Buffer): Promise<string> {
  try {
    const target = (await openJob(JSON.parse(body.toString("utf8")), jobSealer, jobSchema)).replyTarget as Record<
      string,
      string | undefined
    >;
    return target.channel ?? target.token ?? target.to ?? "unknown";
  } catch {
    return "unknown";
  }
}

export function startStack(opts: StackOptions): Promise<Stack> {
  return buildStack(async (stack) => {
    const store = await stack.redisServer();
    const queueStore = await stack.redisServer();
    let bridgeRequests = 0;
    const bridge = await stack.start(startRedisBridge, {
      redisUrl: store.url,
      token: REDIS_REST_TOKEN,
      requireKeyLocking: true,
      onRequest: () => void bridgeRequests++,
    });
    const qstash = await stack.start(startQStash, {
      redisUrl: queueStore.url,
      ...(opts.productionSchedule
        ? { clock: opts.productionSchedule }
        : { retryDelayMs: RETRY_DELAY_MS, clock: { mode: "real" } }),
    });
    const publishedJobs: Buffer[] = [];
    const qstashProxy = await stack.add(() =>
      startProxy({
        target: qstash.url,
        onRequest: (method, path, body) => {
          if (method === "POST" && path.startsWith(PUBLISH_PATH) && path.includes("/jobs/")) {
            publishedJobs.push(body);
            opts.onPublish?.(body);
          }
        },
      }),
    );
    const faultProxy = opts.redisFaults ? await stack.start(startFaultProxy, { target: bridge.url }) : undefined;
    const workerPort = await freePort();
    const gate = await stack.add(() => startProxy({ target: `http://127.0.0.1:${workerPort}`, gated: true }));
    const slack = await stack.start(startSlackFake, {});
    const discord = await stack.start(startDiscordFake, {});
    const twilio = await stack.start(startTwilioFake, {});
    const telegram = await stack.start(startTelegramFake, {});
    const googleChat = await stack.start(startGoogleChatFake, { serviceAccountJson: GOOGLE_CHAT_ACCOUNT });
    const teams = await stack.start(startTeamsFake, {});
    const model = await stack.start(startLocalModel, {});
    const tools = opts.toolRound ? await stack.start(startToolServer, {}) : null;
    // With tools offered (and a call still allowed), every pass asks for the lookup; MAX_TOOL_ROUNDS=1 ends it at one
    // round.
    const lookup = tools ? { toolCalls: [{ name: "lookup_ticket", arguments: '{"id":"42"}' }] } : {};
    await fetch(`${model.url.replace(/\/v1$/, "")}/__script`, {
      method: "POST",
      body: JSON.stringify({
        rules: [...(opts.modelRules ?? []), { match: "", delayMs: opts.modelDelayMs, ...lookup }],
      }),
    });
    const stats = new RedisClient(store.url, { lazyConnect: false, maxRetriesPerRequest: 1 });
    stack.keep(() => stats.quit());
    return {
      redisRestUrl: faultProxy?.url ?? bridge.url,
      redisBridgeUrl: bridge.url,
      ...(faultProxy ? { redisFaultControlUrl: faultProxy.controlUrl } : {}),
      qstashUrl: qstashProxy.url,
      gate,
      workerPort,
      fakes: {
        slack: slack.url,
        discord: discord.url,
        twilio: twilio.url,
        telegram: telegram.url,
        googleChat: googleChat.url,
        teams: teams.url,
      },
      modelUrl: model.url,
      ...(tools ? { toolServerUrl: tools.url } : {}),
      bridgeRequests: () => bridgeRequests,
      redisCommands: async () => commandCalls(await stats.info("commandstats")),
      async storedMessages(pattern) {
        const keys = await stats.keys(pattern);
        // Messages are scored by their time; the log's length is kept under a far-future score (lib/conversation).
        const latest = Date.now() + MESSAGE_CLOCK_SLACK_MS;
        let total = 0;
        for (const key of keys) total += await stats.zcount(key, "-inf", latest);
        return total;
      },
      flushScripts: async () => void (await stats.script("FLUSH")),
      async publishes() {
        const counts = new Map<string, number>();
        for (const place of await Promise.all(publishedJobs.map(placeOfJob)))
          counts.set(place, (counts.get(place) ?? 0) + 1);
        return counts;
      },
      stop: () => stack.stop(),
    };
  });
}
