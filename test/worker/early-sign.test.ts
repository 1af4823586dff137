/**
 * @module
 * The working sign from the webhook (issue #15, "a visible sign within a second"): a Slack message the bot will
 * answer gets its `eyes` reaction right after the acknowledgement, before any job runs (under load a job starts
 * seconds later); the job takes it down once the answer shows, and never puts up a second one.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Redis } from "@upstash/redis/cloudflare";
import { ConversationStore } from "../../lib/conversation/store.ts";
import { scriptModel } from "../support/model.ts";
import { BOT_USER_ID, newSlackChannel, signedSlackRequest, slackMessageEvent } from "../support/slack.ts";
import { slackApiCalls, slackMessages } from "../support/streams.ts";
import { callWorker, eventually, startJobPump, suiteEnv, type JobPump } from "../support/worker.ts";

const SUITE = "earlysign";
const TEAM = "TEARLYSIGN";
const env = suiteEnv(SUITE, { STREAMING: "true", SHOW_WORKING: "true" });
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
const store = new ConversationStore(redis, {
  prefix: `t-${SUITE}`,
  ttlSeconds: () => 120,
  maxMessages: 200,
});
let pump: JobPump | undefined;

afterEach(async () => {
  await pump?.stop();
  pump = undefined;
});

async function say(channel: string, text: string): Promise<void> {
  const event = slackMessageEvent({ team: TEAM, channel, user: "UALICE", text });
  expect((await callWorker(env, await signedSlackRequest(event.body))).status).toBe(200);
}

const reactionsOn = async (channel: string) => (await slackMessages(channel)).find((m) => !m.bot_id)?.reactions ?? [];

describe("a Slack message", () => {
  it("the bot will answer shows the reaction before its job runs, and the job takes it down once the answer is out", async () => {
    const channel = newSlackChannel("CESG");
    const marker = `marker-${channel}`;
    await scriptModel({ match: marker, reply: "Here you are." });
    await say(channel, `<@${BOT_USER_ID}> a question ${marker}`);
    // No job has run yet (nothing takes the suite's deliveries): the sign is the webhook's.
    expect((await reactionsOn(channel)).map((r) => r.name)).toEqual(["eyes"]);

    pump = startJobPump(env, SUITE);
    await eventually(
      async () =>
        (await store.load({ platform: "slack", tenant: TEAM, channel }))?.recent.some((m) => m.role === "assistant"),
      20_000,
      "the answer",
    );
    await eventually(async () => (await reactionsOn(channel)).length === 0, 5_000, "the reaction taken down");
    expect(await slackApiCalls("reactions.add", channel)).toHaveLength(1);
    expect((await slackApiCalls("reactions.remove", channel)).map((c) => c.ok)).toEqual([true]);
  });

  it("in a burst past the budget for taking reactions off, keeps its reaction and the answer still comes", async () => {
    const channel = newSlackChannel("CESB");
    const team = "TEARLYBURST";
    const marker = `marker-${channel}`;
    // Other answers of the workspace took this minute's and the next's removals (Tier 2, halved: 10 a minute).
    const minute = Math.floor(Date.now() / 60_000);
    for (const window of [minute, minute + 1])
      await redis.set(`t-${SUITE}:limit:api:slack|${team}|reactions.remove:${window}`, 10, { ex: 180 });
    await scriptModel({ match: marker, reply: "Here you are." });
    const event = slackMessageEvent({ team, channel, user: "UALICE", text: `<@${BOT_USER_ID}> a question ${marker}` });
    expect((await callWorker(env, await signedSlackRequest(event.body))).status).toBe(200);
    // The add has room (Tier 3): the person sees the sign at once all the same.
    expect((await reactionsOn(channel)).map((r) => r.name)).toEqual(["eyes"]);

    pump = startJobPump(env, SUITE);
    await eventually(
      async () =>
        (await store.load({ platform: "slack", tenant: team, channel }))?.recent.some((m) => m.role === "assistant"),
      20_000,
      "the answer",
    );
    await eventually(async () => (await slackMessages(channel)).some((m) => m.bot_id), 5_000, "the answer posted");
    // Taking it off would go past Slack's Tier 2: it stays, and no call was refused.
    expect(await slackApiCalls("reactions.remove", channel)).toEqual([]);
    expect((await reactionsOn(channel)).map((r) => r.name)).toEqual(["eyes"]);
  });

  it("and a message it will not answer gets no sign", async () => {
    const channel = newSlackChannel("CESN");
    await say(channel, "just chatting among ourselves");
    expect(await slackApiCalls("reactions.add", channel)).toEqual([]);
  });
});
