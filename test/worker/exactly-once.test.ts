/**
 * @module
 * Exactly one answer at production timing (issue #12, items 1 and 3, and the conversation that expired while an
 * answer was owed): QStash on its real retry schedule with a virtual clock, Redis behind the fault proxy, the
 * platform fakes dropping responses. Whatever fails after the platform accepted a post, the answer is posted once.
 */
import { describe, expect, it } from "vitest";
import { APOLOGY } from "../../lib/notices.ts";
import { RECORD_REPLY } from "../../lib/conversation/claim-scripts.ts";
import { ConversationStore } from "../../lib/conversation/store.ts";
import { evalshaMatch, injectedFaults, scriptFault } from "../support/fault-control.ts";
import { ALL_RETRIES_MS, prodTimingSuite, QSTASH_RETRY_DELAYS_MS } from "../support/prod-timing.ts";
import { failSlackPosts, newSlackChannel, signedSlackRequest, slackMention, slackPosts } from "../support/slack.ts";
import { newSender, signedSmsRequest, smsParams, smsSentTo, TWILIO_SETTINGS } from "../support/twilio.ts";
import { callWorker, pumpJobsDuringSuite, SLACK_API_BASE_URL } from "../support/worker.ts";

const SUITE = "exactlyonce";
const TEAM = "TEXACTLYONCE";
const [FIRST_RETRY_MS, SECOND_RETRY_MS] = QSTASH_RETRY_DELAYS_MS;
const REPLY_PATH = `/t/${SUITE}/jobs/reply`;
const FAILED_PATH = `/t/${SUITE}/jobs/failed`;
/** RECORD_REPLY's keys: state, log, reply, answers. */
const RECORD_REPLY_KEYS = 4;
const SLACK_CONTROL = SLACK_API_BASE_URL.replace(/\/api$/, "");
const kit = prodTimingSuite(SUITE, {
  ...TWILIO_SETTINGS,
  BACKFILL_MESSAGES: "30",
});
const store = new ConversationStore(kit.redis, { prefix: `t-${SUITE}`, ttlSeconds: () => 120, maxMessages: 200 });

pumpJobsDuringSuite(kit.env, SUITE);

const newChannel = () => newSlackChannel("CEO");

async function mention(channel: string, text: string): Promise<void> {
  const res = await callWorker(
    kit.env,
    await signedSlackRequest(slackMention({ team: TEAM, channel, user: "UALICE", text }).body),
  );
  expect(res.status).toBe(200);
}

/** The Slack fake's record of the Web API calls of one method in one channel. */
async function slackApiCalls(method: string, channel: string): Promise<unknown[]> {
  return (await (
    await fetch(`${SLACK_CONTROL}/__api?${new URLSearchParams({ method, channel })}`)
  ).json()) as unknown[];
}

const recordingOf = async (channel: string) =>
  evalshaMatch(RECORD_REPLY.source, RECORD_REPLY_KEYS, `${kit.keyPrefix}conv:slack|${TEAM}|${channel}|`);
const botTurns = async (channel: string) =>
  ((await store.load({ platform: "slack", tenant: TEAM, channel })) ?? { recent: [] }).recent.filter(
    (m) => m.role === "assistant",
  );

describe("an answer whose recording fails after the platform accepted it", () => {
  it("is posted once in total: QStash's retry finds it sent and only records it", async () => {
    const channel = newChannel();
    await scriptFault(kit.redisProxyControlUrl, {
      fault: "refuse",
      bodyContains: await recordingOf(channel),
      status: 503,
    });
    await mention(channel, "say it once");

    expect((await kit.deliveriesSettled()).deliveries).toMatchObject([
      { path: REPLY_PATH, retried: 0, status: 500, outcome: "retry" },
    ]);
    expect(await injectedFaults(kit.redisProxyControlUrl, { fault: "refuse" })).toHaveLength(1);
    expect(await slackPosts(channel)).toHaveLength(1);
    expect((await kit.timePasses(FIRST_RETRY_MS)).deliveries).toMatchObject([
      { path: REPLY_PATH, retried: 1, status: 200, outcome: "done" },
    ]);
    expect(await botTurns(channel)).toHaveLength(1);
    await kit.timePasses(ALL_RETRIES_MS);
    expect(await slackPosts(channel)).toHaveLength(1);
  });

  it("is never followed by an apology, even when recording fails on every retry", async () => {
    const channel = newChannel();
    await scriptFault(kit.redisProxyControlUrl, {
      fault: "refuse",
      bodyContains: await recordingOf(channel),
      status: 503,
      times: 20,
    });
    await mention(channel, "say it once, however often recording fails");
    await kit.deliveriesSettled();
    const rest = await kit.timePasses(ALL_RETRIES_MS + 60_000);
    // The failure callback too finds the answer sent (and is retried while recording fails).
    expect(rest.deliveries.some((d) => d.path === FAILED_PATH)).toBe(true);
    const posts = await slackPosts(channel);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.text).not.toBe(APOLOGY);
  });
});

describe("a post that the platform accepted but whose response was lost", () => {
  it("on Slack is found by its metadata before the retry would post it again", async () => {
    const channel = newChannel();
    await scriptFault(SLACK_CONTROL, {
      fault: "drop_after",
      path: "/chat.postMessage",
      bodyContains: `"channel":"${channel}"`,
    });
    await mention(channel, "did my answer land?");

    expect((await kit.deliveriesSettled()).deliveries).toMatchObject([{ path: REPLY_PATH, retried: 0, status: 500 }]);
    expect(await slackPosts(channel)).toHaveLength(1);
    expect((await kit.timePasses(FIRST_RETRY_MS)).deliveries).toMatchObject([
      { path: REPLY_PATH, retried: 1, status: 200 },
    ]);
    expect(await slackPosts(channel)).toHaveLength(1);
    // One read of the channel when the conversation started (the retry does not read it again), one lookup of the part.
    expect(await slackApiCalls("conversations.history", channel)).toHaveLength(2);
    expect(await botTurns(channel)).toHaveLength(1);
    await kit.timePasses(ALL_RETRIES_MS);
    expect(await slackPosts(channel)).toHaveLength(1);
  });

  it("on Twilio is found among the texts sent to the person before the retry would send it again", async () => {
    const from = newSender();
    const twilioControl = String(kit.env.TWILIO_API_BASE_URL);
    await scriptFault(twilioControl, { fault: "drop_after", path: "/messages.create", bodyContains: `"to":"${from}"` });
    expect(
      (await callWorker(kit.env, await signedSmsRequest(kit.env, smsParams({ from, body: "is the shop open today?" }))))
        .status,
    ).toBe(200);

    // SMS jobs wait out the burst window (4 s) before their first attempt.
    expect((await kit.timePasses(5_000)).deliveries).toMatchObject([{ path: REPLY_PATH, retried: 0, status: 500 }]);
    expect(await smsSentTo(from)).toHaveLength(1);
    expect((await kit.timePasses(FIRST_RETRY_MS)).deliveries).toMatchObject([
      { path: REPLY_PATH, retried: 1, status: 200 },
    ]);
    await kit.timePasses(ALL_RETRIES_MS);
    expect(await smsSentTo(from)).toHaveLength(1);
  });
});

describe("a mention whose answer is owed when its conversation expires", () => {
  it("is answered by the retry that comes after the conversation's 120 s, from the text an earlier attempt wrote", async () => {
    const channel = newChannel();
    await failSlackPosts({ channel, status: 500, times: 2 });
    await mention(channel, "answer me even if it takes a while");
    await kit.deliveriesSettled();
    expect((await kit.timePasses(FIRST_RETRY_MS)).deliveries).toMatchObject([{ retried: 1, status: 500 }]);
    const late = await kit.timePasses(SECOND_RETRY_MS);
    expect(late.expiredKeys.some((k) => k.includes(`${channel}|:state`))).toBe(true);
    expect(late.deliveries).toMatchObject([{ path: REPLY_PATH, retried: 2, status: 200 }]);
    const posts = await slackPosts(channel);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.text).not.toBe(APOLOGY);
    await kit.timePasses(ALL_RETRIES_MS);
    expect(await slackPosts(channel)).toHaveLength(1);
  });

  it("gets exactly one apology when every attempt fails", async () => {
    const channel = newChannel();
    await failSlackPosts({ channel, status: 500, times: 4 });
    await mention(channel, "this will not work");
    await kit.deliveriesSettled();
    const rest = await kit.timePasses(ALL_RETRIES_MS + 60_000);
    expect(rest.deliveries.filter((d) => d.path === FAILED_PATH)).toMatchObject([{ status: 200 }]);
    expect((await slackPosts(channel)).map((p) => p.text)).toEqual([APOLOGY]);
  });
});
