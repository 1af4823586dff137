/**
 * What "forget me" costs in Redis commands does not grow with the database: it touches the conversations the person
 * spoke in (their index, written by the ingest script) and nothing else, whether the database holds a hundred keys
 * or a hundred thousand more. Counted from a redis-server of the test's own (INFO commandstats: script internals
 * counted), behind the REST bridge the Worker's client speaks to.
 */
import { Redis as RedisClient } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandCalls, commandsBetween } from "../../bench/load/stats.ts";
import { freePort } from "../../dev/ports.ts";
import { startRedisServer, type RunningRedis } from "../../dev/redis-server.ts";
import { startRedisBridge, type RunningBridge } from "../../dev/upstash-redis/server.ts";
import type { InboundMessage } from "../../lib/message.ts";
import { forgetPerson } from "../../lib/memory/forget.ts";
import type { JobPayload } from "../../lib/queue/job.ts";
import { createRuntime, type Runtime } from "../../lib/runtime.ts";

const TOKEN = "forget-cost-token";
const UNRELATED_KEYS = 100_000;
const TEAM = "TCOST";
const BOT = { userId: "UBOT", name: "Parley", aliases: [] };

let server: RunningRedis;
let bridge: RunningBridge;
let stats: RedisClient;
let rt: Runtime;

beforeAll(async () => {
  server = await startRedisServer(await freePort());
  bridge = await startRedisBridge({
    port: await freePort(),
    redisUrl: server.url,
    token: TOKEN,
    requireKeyLocking: true,
  });
  stats = new RedisClient(server.url, { maxRetriesPerRequest: 1 });
  rt = createRuntime({
    UPSTASH_REDIS_REST_URL: bridge.url,
    UPSTASH_REDIS_REST_TOKEN: TOKEN,
    QSTASH_TOKEN: "unused",
    QSTASH_CURRENT_SIGNING_KEY: "unused",
    QSTASH_NEXT_SIGNING_KEY: "unused",
    PUBLIC_BASE_URL: "http://127.0.0.1:9",
    OPENAI_API_KEY: "unused",
    TOKEN_ENCRYPTION_KEY: "j9Bq+GR42d31ZfaMXifcWY3jhoQh1xdioBTH7U2d31E=",
    REDIS_KEY_PREFIX: "cost",
  });
});

afterAll(async () => {
  stats?.disconnect();
  await bridge?.close();
  await server?.stop();
});

let seq = 0;

/** A mention recorded as the webhook records it (the ingest script): the person's index of places grows with it. */
async function say(person: string, channel: string, text: string): Promise<InboundMessage> {
  seq += 1;
  const ts = Date.now() + seq;
  const msg: InboundMessage = {
    key: { platform: "slack", tenant: TEAM, channel },
    id: `${ts / 1000}`,
    author: { id: person, name: person, isBot: false },
    text,
    ts,
    addressing: "mention",
    mentions: [BOT.userId],
    replyTarget: { platform: "slack", channel },
  };
  await rt.store.record(msg, { startIfIdle: true, reset: false });
  return msg;
}

/** The person's talk in three channels and a thread, then their "forget me": the commands the forget ran. */
async function forgetCost(person: string): Promise<number> {
  for (const channel of [`C1${person}`, `C2${person}`, `C3${person}`, `C4${person}`]) {
    await say(person, channel, `something about me in ${channel}`);
    await say(`UOTHER${person}`, channel, "and something else");
  }
  const request = await say(person, `C1${person}`, "forget me");
  const job: JobPayload = {
    key: request.key,
    conversationId: "c",
    trigger: { id: request.id, ts: request.ts, authorId: person, authorName: person },
    required: true,
    reason: "direct_mention",
    bot: BOT,
    replyTarget: { platform: "slack", channel: request.key.channel },
  };
  const before = commandCalls(await stats.info("commandstats"));
  expect(await forgetPerson(rt, job)).toMatchObject({ outcome: "forgotten" });
  return commandsBetween(before, commandCalls(await stats.info("commandstats"))).total;
}

async function addUnrelatedKeys(count: number): Promise<void> {
  for (let from = 0; from < count; from += 10_000) {
    const batch = stats.pipeline();
    for (let i = from; i < Math.min(count, from + 10_000); i++)
      batch.set(`cost:conv:slack|TOTHER${i % 500}|C${i}|:log`, "x");
    await batch.exec();
  }
}

describe("forget me in a large database", () => {
  it("costs the same commands with 100,000 unrelated keys as without them, and only what the person's places need", {
    timeout: 60_000,
  }, async () => {
    // The first run loads the scripts into the server's cache; the two measured runs find them there.
    await forgetCost("UWARM");
    const small = await forgetCost("UALICE");
    await addUnrelatedKeys(UNRELATED_KEYS);
    expect(await stats.dbsize()).toBeGreaterThan(UNRELATED_KEYS);
    const large = await forgetCost("UBOB");
    expect(large).toBe(small);
    // A handful per conversation the person spoke in (four here), whatever the database holds.
    expect(large).toBeLessThan(100);
  });
});
