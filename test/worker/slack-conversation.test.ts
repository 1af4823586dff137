import { Redis } from "@upstash/redis/cloudflare";
import { describe, expect, it, vi } from "vitest";
import { modelRequests, scriptModel, turnRecords } from "../support/model.ts";
import { BOT_USER_ID, failSlackPosts, signedSlackRequest, slackMessageEvent, slackPosts } from "../support/slack.ts";
import {
  callWorker,
  eventually,
  settle,
  pumpJobsDuringSuite,
  SLACK_API_BASE_URL,
  suiteEnv,
} from "../support/worker.ts";

const SUITE = "slackconv";
const settings = {
  FOLLOWUP_WINDOW_SECONDS: "60",
  USE_LLM_JUDGE: "true",
  // Memory has suites of its own; here its extra model calls would blur the counts.
  MEMORY_ENABLED: "false",
};
const env = suiteEnv(SUITE, { ...settings, CONVERSATION_TIMEOUT_SECONDS: "60", BACKFILL_MESSAGES: "30" });
/**
 * The expiry test's conversations time out after 3 s: a suite of its own, so that no other test races that clock
 * (on a loaded machine an answer retried twice took longer, and its conversation was gone: an apology, no answer).
 */
const EXPIRING_SUITE = "slackexpire";
const expiringEnv = suiteEnv(EXPIRING_SUITE, { ...settings, CONVERSATION_TIMEOUT_SECONDS: "3" });
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
let channelSeq = 0;

pumpJobsDuringSuite(env, SUITE);
pumpJobsDuringSuite(expiringEnv, EXPIRING_SUITE);

function newPlace() {
  channelSeq += 1;
  return { team: "TSLACKCONV", channel: `C${Date.now().toString(36).toUpperCase()}${channelSeq}` };
}

async function send(
  place: { team: string; channel: string },
  user: string,
  text: string,
  extra: { type?: "message" | "app_mention"; ts?: string } = {},
  to = env,
) {
  const event = slackMessageEvent({ ...place, user, text, ...extra });
  const res = await callWorker(to, await signedSlackRequest(event.body));
  expect(res.status).toBe(200);
  return event.ts;
}

async function keysOf(channel: string, suite = SUITE): Promise<string[]> {
  return (await redis.keys(`t-${suite}:conv:*${channel}*`)).sort();
}

describe("a conversation on Slack", () => {
  it("answers a mention, then follow-ups from the same and a second person, with the whole exchange in the prompt", async () => {
    const place = newPlace();
    const logs = vi.spyOn(console, "log");
    const opening = `marker-${place.channel}-1`;
    // Only the opening carries a marker: the follow-ups are worded as people write them, since the decider reads words.
    const promptsOf = async (text: string) =>
      (await modelRequests(text)).map((r) => JSON.stringify(r.messages)).filter((p) => p.includes(opening));
    await send(place, "UALICE", `<@${BOT_USER_ID}> what is the capital of Peru? ${opening}`);
    const first = await eventually(
      async () => (await slackPosts(place.channel)).length === 1 && slackPosts(place.channel),
      15_000,
      "first reply",
    );
    expect(first[0]!.text.length).toBeGreaterThan(0);

    await send(place, "UALICE", "and how many people live there?");
    await eventually(async () => (await slackPosts(place.channel)).length === 2, 15_000, "follow-up reply");
    const [followUpPrompt] = await promptsOf("and how many people live there?");
    expect(followUpPrompt).toContain(first[0]!.text.slice(0, 20));

    await send(place, "UBOB", "what about the weather there in May?");
    await eventually(async () => (await slackPosts(place.channel)).length === 3, 15_000, "second person's reply");
    const [thirdPrompt] = await promptsOf("what about the weather there in May?");
    expect(thirdPrompt).toContain("and how many people live there?");
    const reasons = logs.mock.calls
      .map((c) => String(c[0]))
      .filter((line) => line.includes('"event":"decision"') && line.includes(place.channel))
      .map((line) => (JSON.parse(line) as { reason: string }).reason);
    expect(reasons).toEqual(["direct_mention", "recent_followup", "judge"]);
    logs.mockRestore();
  });

  it("keeps quiet when two other people talk to each other, and logs why", async () => {
    const place = newPlace();
    const logs = vi.spyOn(console, "log");
    await send(place, "UALICE", `<@${BOT_USER_ID}> hi there`);
    await eventually(async () => (await slackPosts(place.channel)).length === 1, 15_000, "reply to the mention");
    await send(place, "UCAROL", "<@UDAVE> did you push the fix yesterday?");
    await send(place, "UDAVE", "<@UCAROL> yes, merged it this morning");
    await settle(1_500);
    expect(await slackPosts(place.channel)).toHaveLength(1);
    const decisions = logs.mock.calls
      .map((c) => String(c[0]))
      .filter((line) => line.includes('"event":"decision"') && line.includes(place.channel))
      .map((line) => JSON.parse(line) as { respond: string; reason: string; author: string });
    const chatter = decisions.filter((d) => d.author === "UCAROL" || d.author === "UDAVE");
    expect(chatter).toHaveLength(2);
    for (const d of chatter) {
      expect(d.respond).toBe("no");
      expect(d.reason).toBeTruthy();
    }
    logs.mockRestore();
  });

  it("lets the conversation expire from Redis after the inactivity timeout", async () => {
    const place = newPlace();
    await send(place, "UALICE", `<@${BOT_USER_ID}> remember this`, {}, expiringEnv);
    await eventually(async () => (await slackPosts(place.channel)).length === 1, 15_000, "reply");
    // meta, log, and the answer traces of the admin view: all three expire together.
    expect((await keysOf(place.channel, EXPIRING_SUITE)).length).toBe(3);
    await eventually(
      async () => (await keysOf(place.channel, EXPIRING_SUITE)).length === 0,
      10_000,
      "conversation to expire",
    );
  });

  it("answers once when the same event arrives three times at once and as app_mention + message", async () => {
    const place = newPlace();
    const ts = `${Math.floor(Date.now() / 1000)}.424242`;
    const text = `<@${BOT_USER_ID}> deploy status?`;
    const asMessage = slackMessageEvent({ ...place, user: "UALICE", text, ts });
    const asMention = slackMessageEvent({ ...place, user: "UALICE", text, ts, type: "app_mention" });
    const responses = await Promise.all([
      callWorker(env, await signedSlackRequest(asMessage.body)),
      callWorker(
        env,
        await signedSlackRequest(asMessage.body, {
          headers: { "X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout" },
        }),
      ),
      callWorker(env, await signedSlackRequest(asMessage.body)),
      callWorker(env, await signedSlackRequest(asMention.body)),
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    await eventually(async () => (await slackPosts(place.channel)).length >= 1, 15_000, "reply");
    await settle(1_500);
    expect(await slackPosts(place.channel)).toHaveLength(1);
  });

  it("still answers once when the model fails first (QStash retries the job)", async () => {
    const place = newPlace();
    const marker = `flaky-${place.channel}`;
    await scriptModel({ match: marker, status: 500, times: 2 });
    await send(place, "UALICE", `<@${BOT_USER_ID}> ${marker}`);
    await eventually(async () => (await slackPosts(place.channel)).length === 1, 20_000, "reply after retries");
    await settle(1_000);
    expect(await slackPosts(place.channel)).toHaveLength(1);
    expect((await modelRequests(marker)).length).toBe(3);
  });

  it("finishes a long answer whose second part failed, without posting the first part again", async () => {
    const place = newPlace();
    const marker = `long-${place.channel}`;
    // Three paragraphs of about 3,500 characters: three Slack messages of at most 4,000.
    const answer = [0, 1, 2].map((i) => `Part ${i}. ${"word ".repeat(700).trim()}`).join("\n\n");
    await scriptModel({ match: marker, reply: answer, times: 5 });
    await failSlackPosts({ channel: place.channel, status: 500, after: 1, times: 1 });
    await send(place, "UALICE", `<@${BOT_USER_ID}> ${marker}`);
    await eventually(async () => (await slackPosts(place.channel)).length >= 3, 20_000, "every part");
    await settle(1_000);
    expect((await slackPosts(place.channel)).map((p) => p.text.slice(0, 7))).toEqual(["Part 0.", "Part 1.", "Part 2."]);
    expect(await modelRequests(marker)).toHaveLength(1);
  });

  it("tells the person when the model fails on every try, through the failure route", async () => {
    const place = newPlace();
    const marker = `broken-${place.channel}`;
    const errors = vi.spyOn(console, "error");
    await scriptModel({ match: marker, status: 500, times: 100 });
    await send(place, "UALICE", `<@${BOT_USER_ID}> ${marker}`);
    const posts = await eventually(
      async () => {
        const p = await slackPosts(place.channel);
        return p.length === 1 && p;
      },
      30_000,
      "apology",
    );
    expect(posts[0]!.text).toMatch(/couldn't answer/);
    expect(errors.mock.calls.some((c) => String(c[0]).includes('"event":"job_failed"'))).toBe(true);
    errors.mockRestore();
  });
});

describe("a Slack thread", () => {
  const SLACK_FAKE = SLACK_API_BASE_URL.replace(/\/api$/, "");
  /** A person's message that Slack has (a thread's parent, or a reply in it): the bot never saw it arrive. */
  async function inSlack(channel: string, user: string, text: string, threadTs?: string): Promise<string> {
    const res = await fetch(`${SLACK_FAKE}/__messages`, {
      method: "POST",
      body: JSON.stringify({ channel, user, text, ...(threadTs ? { thread_ts: threadTs } : {}) }),
    });
    return ((await res.json()) as { ts: string }).ts;
  }
  const repliesCalls = async (channel: string) =>
    (await (await fetch(`${SLACK_FAKE}/__api?method=conversations.replies&channel=${channel}`)).json()) as unknown[];

  it("is read whole when the bot is called into it: the parent first, then the replies it never saw, in one call", async () => {
    const place = newPlace();
    const parentText = `Our launch moves to Thursday because the payment provider is late. parent-${place.channel}`;
    const threadTs = await inSlack(place.channel, "UALICE", parentText);
    await inSlack(place.channel, "UCAROL", `Does marketing know? r1-${place.channel}`, threadTs);
    await inSlack(place.channel, "UALICE", `Not yet, I'll tell them today. r2-${place.channel}`, threadTs);
    const event = slackMessageEvent({
      ...place,
      user: "UBOB",
      text: `<@${BOT_USER_ID}> can you put that in one sentence? t1-${place.channel}`,
      threadTs,
    });
    expect((await callWorker(env, await signedSlackRequest(event.body))).status).toBe(200);
    await eventually(async () => (await slackPosts(place.channel)).length === 1, 15_000, "the thread answer");
    const [prompt] = await modelRequests(`t1-${place.channel}`);
    const read = turnRecords(prompt!).filter((r) => r.before_you_were_called);
    expect(read.map((r) => r.text)).toEqual([
      parentText,
      `Does marketing know? r1-${place.channel}`,
      `Not yet, I'll tell them today. r2-${place.channel}`,
    ]);
    expect(JSON.stringify(prompt!.messages)).not.toContain("parent_message");

    // A later answer in the thread has them from the conversation: Slack is not asked again.
    const again = slackMessageEvent({
      ...place,
      user: "UBOB",
      text: `<@${BOT_USER_ID}> and in five words? t2-${place.channel}`,
      threadTs,
    });
    expect((await callWorker(env, await signedSlackRequest(again.body))).status).toBe(200);
    await eventually(async () => (await slackPosts(place.channel)).length === 2, 15_000, "the second thread answer");
    const [second] = await modelRequests(`t2-${place.channel}`);
    expect(JSON.stringify(second!.messages)).toContain(`r1-${place.channel}`);
    expect(await repliesCalls(place.channel)).toHaveLength(1);
  });

  it("shows a parent the channel's conversation holds too only once", async () => {
    const place = newPlace();
    const parentText = `<@${BOT_USER_ID}> which regions does the outage hit? c1-${place.channel}`;
    const threadTs = await send(place, "UALICE", parentText);
    await eventually(async () => (await slackPosts(place.channel)).length === 1, 15_000, "the channel answer");
    const event = slackMessageEvent({
      ...place,
      user: "UBOB",
      text: `<@${BOT_USER_ID}> and since when? c2-${place.channel}`,
      threadTs,
    });
    expect((await callWorker(env, await signedSlackRequest(event.body))).status).toBe(200);
    await eventually(async () => (await slackPosts(place.channel)).length === 2, 15_000, "the thread answer");
    const [prompt] = await modelRequests(`c2-${place.channel}`);
    expect(JSON.stringify(prompt!.messages).split(`c1-${place.channel}`)).toHaveLength(2);
    expect(await repliesCalls(place.channel)).toHaveLength(1);
  });
});
