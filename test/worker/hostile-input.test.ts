import { Redis } from "@upstash/redis/cloudflare";
import { beforeAll, describe, expect, it } from "vitest";
import { generateDiscordKeys } from "../../dev/signers/discord.ts";
import { sealJob } from "../../lib/queue/sealed-job.ts";
import { Keyring } from "../../lib/secrets/keyring.ts";
import { Sealer } from "../../lib/secrets/seal.ts";
import { hostileCorpus, hostileJob, type HostileCase } from "../support/hostile-corpus.ts";
import { modelRequests } from "../support/model.ts";
import { BOT_USER_ID, signedSlackRequest, slackMessageEvent, slackPosts } from "../support/slack.ts";
import { twilioSuiteEnv } from "../support/twilio.ts";
import { callWorker, eventually, JOB_TAP_URL, settle, type TestEnv } from "../support/worker.ts";

const SUITE = "hostile";
const MARKER = `hostile-marker-${Date.now()}`;
/** Enough in flight to finish thousands of cases quickly, few enough for a shared 2-core machine. */
const CONCURRENCY = 16;
const CORPUS_TIMEOUT_MS = 240_000;

let env: TestEnv;
let redis: Redis;

beforeAll(async () => {
  const discordKeys = await generateDiscordKeys();
  env = twilioSuiteEnv(SUITE, { DISCORD_PUBLIC_KEY: discordKeys.publicKeyHex, SMS_BURST_WINDOW_SECONDS: "0" });
  redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
  corpus = hostileCorpus({
    marker: MARKER,
    publicBaseUrl: String(env.PUBLIC_BASE_URL),
    qstashCurrentKey: String(env.QSTASH_CURRENT_SIGNING_KEY),
    discordKeys,
    otherDiscordKeys: await generateDiscordKeys(),
    sealedJob: JSON.stringify(
      await sealJob(hostileJob(MARKER), new Sealer(new Keyring(String(env.TOKEN_ENCRYPTION_KEY)), "job-payload")),
    ),
  });
});
let corpus: HostileCase[];

async function runAll(cases: HostileCase[]): Promise<{ name: string; status: number }[]> {
  const results: { name: string; status: number }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++]!;
      const res = await callWorker(env, await c.request());
      await res.body?.cancel();
      results.push({ name: c.name, status: res.status });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return results;
}

async function tapIsEmpty(suite: string): Promise<boolean> {
  const res = await fetch(`${JOB_TAP_URL}/__next/${suite}?wait=0`);
  await res.body?.cancel();
  return res.status === 204;
}

describe("hostile input on every route", () => {
  it(
    "never answers 5xx, never writes to Redis, never publishes a job and never calls the model",
    async () => {
      const started = Date.now();
      const results = await runAll(corpus);
      const byStatus: Record<number, number> = {};
      for (const r of results) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
      console.log(
        `hostile input: tried ${results.length} cases in ${Date.now() - started} ms; statuses ${JSON.stringify(byStatus)}`,
      );
      expect(results.length).toBeGreaterThan(2_000);
      expect(results.filter((r) => r.status >= 500).map((r) => `${r.status} ${r.name}`)).toEqual([]);
      await settle(1_000);
      expect(await redis.keys(`t-${SUITE}:*`)).toEqual([]);
      expect(await tapIsEmpty(SUITE)).toBe(true);
      expect(await modelRequests(MARKER)).toEqual([]);
    },
    CORPUS_TIMEOUT_MS,
  );
});

describe("replayed deliveries", () => {
  const REPLAY_SUITE = "hostilereplay";
  const replayEnv = () => twilioSuiteEnv(REPLAY_SUITE);

  it("refuses a correctly signed Slack event sent after the 5-minute window, and writes nothing", async () => {
    const channel = `CREPLAY${Date.now()}`;
    const event = slackMessageEvent({ team: "TREPLAY", channel, user: "UALICE", text: `<@${BOT_USER_ID}> replay me` });
    const res = await callWorker(
      replayEnv(),
      await signedSlackRequest(event.body, { timestamp: Math.floor(Date.now() / 1000) - 301 }),
    );
    expect(res.status).toBe(401);
    await settle(300);
    expect(await redis.keys(`t-${REPLAY_SUITE}:*${channel}*`)).toEqual([]);
  });

  it("answers a QStash delivery replayed after it was answered with 2xx and posts nothing more", async () => {
    const testEnv = replayEnv();
    const channel = `CREPLAYQ${Date.now()}`;
    const event = slackMessageEvent({
      team: "TREPLAY",
      channel,
      user: "UALICE",
      text: `<@${BOT_USER_ID}> answer me once`,
    });
    expect((await callWorker(testEnv, await signedSlackRequest(event.body))).status).toBe(200);
    const delivery = await eventually(
      async () => {
        const res = await fetch(`${JOB_TAP_URL}/__next/${REPLAY_SUITE}?wait=2000`);
        if (res.status !== 200) return void (await res.body?.cancel());
        return (await res.json()) as { id: string; path: string; headers: Record<string, string>; body: string };
      },
      20_000,
      "the job delivery",
    );
    const deliver = () =>
      callWorker(
        testEnv,
        new Request(`https://worker.test${delivery.path}`, {
          method: "POST",
          headers: delivery.headers,
          body: delivery.body,
        }),
      );
    const first = await deliver();
    expect(first.status).toBe(200);
    await fetch(`${JOB_TAP_URL}/__respond/${delivery.id}`, {
      method: "POST",
      body: JSON.stringify({ status: 200, headers: {}, body: await first.text() }),
    });
    expect(await slackPosts(channel)).toHaveLength(1);

    const replayed = await deliver();
    expect(replayed.status).toBe(200);
    expect(await replayed.json()).toEqual({ outcome: "already_answered" });
    expect(await slackPosts(channel)).toHaveLength(1);
  });
});
