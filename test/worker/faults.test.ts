import { Redis } from "@upstash/redis/cloudflare";
import { describe, expect, it, vi } from "vitest";
import { generateDiscordKeys } from "../../dev/signers/discord.ts";
import { APOLOGY } from "../../lib/notices.ts";
import {
  askInteraction,
  discordCalls,
  failDiscordCalls,
  signedInteractionRequest,
  snowflake,
} from "../support/discord.ts";
import { interactAsDiscord } from "../support/discord-worker.ts";
import { modelRequests, scriptModel } from "../support/model.ts";
import { BOT_USER_ID, failSlackPosts, signedSlackRequest, slackMessageEvent, slackPosts } from "../support/slack.ts";
import { newSender, signedSmsRequest, smsParams, twilioSuiteEnv } from "../support/twilio.ts";
import {
  callWorker,
  eventually,
  JOB_TAP_URL,
  pumpJobsDuringSuite,
  settle,
  startJobPump,
  suiteEnv,
  type TestEnv,
} from "../support/worker.ts";

/** Nothing listens on port 1: connections are refused at once, as when the bridge or QStash is down. */
const UNREACHABLE = "http://127.0.0.1:1";
const SUITE = "faults";
// Short enough to time out a scripted slow answer quickly, long enough for a normal one on a busy machine.
const env = suiteEnv(SUITE, { LLM_TIMEOUT_MS: "2500" });
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
let seq = 0;

const pump = pumpJobsDuringSuite(env, SUITE);

function newChannel(): string {
  seq += 1;
  return `CF${Date.now().toString(36).toUpperCase()}${seq}`;
}

function mention(channel: string, text: string) {
  return slackMessageEvent({ team: "TFAULTS", channel, user: "UALICE", text: `<@${BOT_USER_ID}> ${text}` });
}

async function keysOf(suite: string, part: string): Promise<string[]> {
  return redis.keys(`t-${suite}:*${part}*`);
}

async function tapIsEmpty(suite: string): Promise<boolean> {
  const res = await fetch(`${JOB_TAP_URL}/__next/${suite}?wait=0`);
  await res.body?.cancel();
  return res.status === 204;
}

describe("when the Redis bridge is down", () => {
  const SUITE_DOWN = "faultsredis";
  const downEnv = (extra: TestEnv = {}) =>
    twilioSuiteEnv(SUITE_DOWN, { UPSTASH_REDIS_REST_URL: UNREACHABLE, ...extra });

  it("every webhook answers 503 so that the platform retries, and nothing is written or published", async () => {
    const channel = newChannel();
    const keys = await generateDiscordKeys();
    const from = newSender();
    const slack = await callWorker(downEnv(), await signedSlackRequest(mention(channel, "are you there?").body));
    const sms = await callWorker(
      downEnv(),
      await signedSmsRequest(downEnv(), smsParams({ from, body: "are you there?" })),
    );
    const interaction = askInteraction(
      { guildId: snowflake(), channelId: snowflake() },
      { id: snowflake(), name: "Alice" },
      "are you there?",
    );
    const discord = await callWorker(
      downEnv({ DISCORD_PUBLIC_KEY: keys.publicKeyHex }),
      await signedInteractionRequest(keys, JSON.stringify(interaction)),
    );
    expect([slack.status, sms.status, discord.status]).toEqual([503, 503, 503]);
    expect(slack.headers.get("Retry-After")).toBeTruthy();
    await settle(500);
    expect(await keysOf(SUITE_DOWN, channel)).toEqual([]);
    expect(await keysOf(SUITE_DOWN, from)).toEqual([]);
    expect(await tapIsEmpty(SUITE_DOWN)).toBe(true);
  });
});

describe("when QStash is down", () => {
  it("the webhook answers 503, and Slack's retry once QStash is back is answered once", async () => {
    const channel = newChannel();
    const event = mention(channel, "what is the weather like?");
    const down = await callWorker(suiteEnv(SUITE, { QSTASH_URL: UNREACHABLE }), await signedSlackRequest(event.body));
    expect(down.status).toBe(503);
    const retry = await callWorker(
      env,
      await signedSlackRequest(event.body, {
        headers: { "X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_error" },
      }),
    );
    expect(retry.status).toBe(200);
    await eventually(async () => (await slackPosts(channel)).length === 1, 20_000, "the answer");
    const again = await callWorker(
      env,
      await signedSlackRequest(event.body, { headers: { "X-Slack-Retry-Num": "2" } }),
    );
    expect(again.status).toBe(200);
    await settle(1_500);
    expect(await slackPosts(channel)).toHaveLength(1);
  });
});

describe("when the model or the Worker fails during a job", () => {
  it("a model call that outlasts LLM_TIMEOUT_MS is retried and the message answered once", async () => {
    const channel = newChannel();
    const marker = `slow-${channel}`;
    await scriptModel({ match: marker, delayMs: 8_000, times: 1 });
    await callWorker(env, await signedSlackRequest(mention(channel, marker).body));
    await eventually(async () => (await slackPosts(channel)).length === 1, 30_000, "the answer after the timeout");
    await settle(1_500);
    expect(await slackPosts(channel)).toHaveLength(1);
    // The timed-out call and the retry (a memory job after the answer may read the marker too).
    expect((await modelRequests(marker)).length).toBeGreaterThanOrEqual(2);
    expect(pump.answers.some((status) => status >= 500)).toBe(true);
  });

  it("a job that fails while posting is redelivered by QStash and the answer posted once", async () => {
    const channel = newChannel();
    await failSlackPosts({ channel, status: 500, times: 1 });
    await callWorker(env, await signedSlackRequest(mention(channel, "tell me a fact").body));
    await eventually(async () => (await slackPosts(channel)).length === 1, 30_000, "the answer after redelivery");
    await settle(1_500);
    expect(await slackPosts(channel)).toHaveLength(1);
  });

  it("a job whose answer never reaches QStash (the Worker died after posting) is redelivered and not posted twice", async () => {
    const SUITE_LOST = "faultslost";
    const lostEnv = suiteEnv(SUITE_LOST);
    const channel = newChannel();
    await callWorker(lostEnv, await signedSlackRequest(mention(channel, "say it once").body));
    const delivery = await eventually(
      async () => {
        const res = await fetch(`${JOB_TAP_URL}/__next/${SUITE_LOST}?wait=2000`);
        if (res.status !== 200) return void (await res.body?.cancel());
        return (await res.json()) as { id: string; path: string; headers: Record<string, string>; body: string };
      },
      20_000,
      "the job delivery",
    );
    const worked = await callWorker(
      lostEnv,
      new Request(`https://worker.test${delivery.path}`, {
        method: "POST",
        headers: delivery.headers,
        body: delivery.body,
      }),
    );
    expect(worked.status).toBe(200);
    expect(await slackPosts(channel)).toHaveLength(1);
    // QStash sees a failure instead of the Worker's 200, as when the isolate dies before answering.
    await fetch(`${JOB_TAP_URL}/__respond/${delivery.id}`, {
      method: "POST",
      body: JSON.stringify({ status: 500, headers: {}, body: "" }),
    });
    const redelivered = startJobPump(lostEnv, SUITE_LOST);
    try {
      await eventually(async () => redelivered.answers.length >= 1, 20_000, "the redelivery");
      await settle(1_000);
      expect(redelivered.answers.every((status) => status < 300)).toBe(true);
    } finally {
      await redelivered.stop();
    }
    expect(await slackPosts(channel)).toHaveLength(1);
  });

  it("Slack answering 429 makes the job wait the Retry-After before it posts, once", async () => {
    const channel = newChannel();
    const RETRY_AFTER_SECONDS = 3;
    await failSlackPosts({ channel, status: 429, retryAfter: RETRY_AFTER_SECONDS, times: 1 });
    const sent = Date.now();
    await callWorker(env, await signedSlackRequest(mention(channel, "rate limited?").body));
    await eventually(async () => (await slackPosts(channel)).length === 1, 30_000, "the answer after the wait");
    // Without the Retry-After the suite's QStash retries after 0.2 s.
    expect(Date.now() - sent).toBeGreaterThanOrEqual((RETRY_AFTER_SECONDS - 0.5) * 1000);
    await settle(1_000);
    expect(await slackPosts(channel)).toHaveLength(1);
  });
});

describe("when Discord answers 429", () => {
  it("the job waits the retry_after before it edits the deferred answer, once", async () => {
    const SUITE_DISCORD = "faultsdiscord";
    const keys = await generateDiscordKeys();
    const discordEnv = suiteEnv(SUITE_DISCORD, { DISCORD_PUBLIC_KEY: keys.publicKeyHex });
    const discordPump = startJobPump(discordEnv, SUITE_DISCORD);
    try {
      const RETRY_AFTER_SECONDS = 3;
      const interaction = askInteraction(
        { guildId: snowflake(), channelId: snowflake() },
        { id: snowflake(), name: "Alice" },
        "rate limited on Discord?",
      );
      const apiUrl = String(discordEnv.DISCORD_API_BASE_URL);
      await failDiscordCalls(apiUrl, {
        route: "edit_original",
        token: interaction.token,
        status: 429,
        retryAfter: RETRY_AFTER_SECONDS,
      });
      const sent = Date.now();
      const res = await interactAsDiscord(discordEnv, keys, interaction);
      expect(res.status).toBe(200);
      await eventually(
        async () => (await discordCalls(apiUrl, { token: interaction.token })).length === 1,
        30_000,
        "the edited answer",
      );
      expect(Date.now() - sent).toBeGreaterThanOrEqual((RETRY_AFTER_SECONDS - 0.5) * 1000);
      await settle(1_000);
      expect(await discordCalls(apiUrl, { token: interaction.token })).toHaveLength(1);
    } finally {
      await discordPump.stop();
    }
  });
});

describe("when the conversation expires between the message and its job", () => {
  const SUITE_TTL = "faultsttl";
  const ttlEnv = suiteEnv(SUITE_TTL, { CONVERSATION_TIMEOUT_SECONDS: "1" });

  it("the job ends cleanly with 2xx, and the person who mentioned the bot hears once that it could not answer", async () => {
    const channel = newChannel();
    const logs = vi.spyOn(console, "log");
    await callWorker(ttlEnv, await signedSlackRequest(mention(channel, "remember me?").body));
    await eventually(
      async () => (await keysOf(SUITE_TTL, `conv:*${channel}`)).length === 0,
      15_000,
      "the conversation to expire",
    );
    const late = startJobPump(ttlEnv, SUITE_TTL);
    try {
      await eventually(async () => late.answers.length === 1, 20_000, "the job");
      expect(late.answers[0]).toBeLessThan(300);
    } finally {
      await late.stop();
    }
    const ended = logs.mock.calls
      .map((c) => String(c[0]))
      .filter((line) => line.includes('"event":"job_ended"') && line.includes(channel));
    expect(ended.some((line) => line.includes('"outcome":"apologised"'))).toBe(true);
    expect((await slackPosts(channel)).map((p) => p.text)).toEqual([APOLOGY]);
    logs.mockRestore();
  });
});
