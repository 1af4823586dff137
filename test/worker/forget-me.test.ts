import { Redis } from "@upstash/redis/cloudflare";
import { describe, expect, it } from "vitest";
import { FORGET_CONFIRMATION, FORGET_LIMIT_NOTICE } from "../../lib/notices.ts";
import { modelRequests, scriptModel } from "../support/model.ts";
import { storedFacts } from "../support/memory.ts";
import { SLACK_FAKE_ORIGIN } from "../support/slack-install.ts";
import {
  BOT_USER_ID,
  distinctSlackTs,
  failSlackPosts,
  newSlackPlace,
  signedSlackRequest,
  slackMessageEvent,
  slackPosts,
} from "../support/slack.ts";
import {
  newSender,
  signedSmsRequest,
  smsParams,
  smsSentTo,
  TWILIO_ACCOUNT_SID,
  twilioSuiteEnv,
} from "../support/twilio.ts";
import { callWorker, eventually, pumpJobsDuringSuite, settle } from "../support/worker.ts";

const SUITE = "forgetme";
const PREFIX = `t-${SUITE}`;
const env = twilioSuiteEnv(SUITE, { MEMORY_ENABLED: "true", SMS_BURST_WINDOW_SECONDS: "1", BACKFILL_MESSAGES: "30" });
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
/** Long enough for a job that should not post to have run. */
const QUIET_MS = 2_000;

pumpJobsDuringSuite(env, SUITE);

/** A Slack delivery, addressed to the bot or not. */
async function say(
  place: { team: string; channel: string },
  user: string,
  text: string,
  addressed = true,
): Promise<Response> {
  const event = slackMessageEvent({
    ...place,
    user,
    text: addressed ? `<@${BOT_USER_ID}> ${text}` : text,
    ts: distinctSlackTs(),
  });
  return callWorker(env, await signedSlackRequest(event.body));
}

const posts = (channel: string, n: number) =>
  eventually(
    async () => ((await slackPosts(channel)).length >= n ? slackPosts(channel) : undefined),
    15_000,
    `${n} posts`,
  );
const factsOf = (team: string, person: string) =>
  storedFacts(redis, PREFIX, { platform: "slack", tenant: team }, person);

describe("forget me", () => {
  it("confirms a 'forget me' followed at once by a question, forgets, and answers the question too", async () => {
    const place = newSlackPlace("FGT");
    const { team, id } = place;
    await say(place, "UALICE", `I'm allergic to peanuts. a-${id}`);
    await posts(place.channel, 1);
    await eventually(async () => (await factsOf(team, "UALICE")).includes("peanuts"), 15_000, "the fact");

    await say(place, "UALICE", "forget me");
    await say(place, "UALICE", `what's the weather like? q-${id}`);
    const all = await posts(place.channel, 3);
    expect(all.slice(1).map((p) => p.text)).toContain(FORGET_CONFIRMATION);
    expect(all.filter((p) => p.text === FORGET_CONFIRMATION)).toHaveLength(1);
    expect(await factsOf(team, "UALICE")).not.toContain("peanuts");
    // The question was answered as a question, and nothing of before the request reached its prompt.
    const [question] = await modelRequests(`q-${id}`);
    expect(JSON.stringify(question!.messages)).not.toContain("peanuts");
  });

  it("still confirms, once, when posting the confirmation failed the first time", async () => {
    const place = newSlackPlace("FGT");
    await say(place, "UALICE", `I'm a chef. a-${place.id}`);
    await posts(place.channel, 1);
    await eventually(async () => (await factsOf(place.team, "UALICE")).includes("chef"), 15_000, "the fact");

    await failSlackPosts({ channel: place.channel, status: 500, times: 1 });
    await say(place, "UALICE", "forget me");
    const all = await posts(place.channel, 2);
    await settle(QUIET_MS);
    expect((await slackPosts(place.channel)).map((p) => p.text)).toEqual([all[0]!.text, FORGET_CONFIRMATION]);
    expect(await factsOf(place.team, "UALICE")).toBe("");
    // Once confirmed, the request itself is gone too.
    expect(
      JSON.stringify(await redis.zrange(`${PREFIX}:conv:slack|${place.team}|${place.channel}|:log`, 0, -1)),
    ).not.toContain("UALICE");
  });

  it("ignores a 'forget me' that was not addressed to the bot, even right after a mention", async () => {
    const place = newSlackPlace("FGT");
    const { team, id } = place;
    await say(place, "UALICE", `I'm a teacher. a-${id}`);
    await posts(place.channel, 1);
    await eventually(async () => (await factsOf(team, "UALICE")).includes("teacher"), 15_000, "the fact");

    await Promise.all([say(place, "UALICE", `what's new? b-${id}`), say(place, "UALICE", "forget me", false)]);
    await posts(place.channel, 2);
    await settle(QUIET_MS);
    expect((await slackPosts(place.channel)).map((p) => p.text)).not.toContain(FORGET_CONFIRMATION);
    expect(await factsOf(team, "UALICE")).toContain("teacher");
  });

  it("keeps a memory job already running in another conversation from writing the person's facts back", async () => {
    const here = newSlackPlace("FGT");
    const { team, id } = here;
    const there = { team, channel: `CFGT${id}B` };
    const marker = `slow-${id}`;
    // The answer comes at once; the extraction of that exchange takes long enough for "forget me" to run meanwhile.
    await scriptModel({ match: marker, reply: "Good to know.", times: 1 }, { match: marker, delayMs: 3_000, times: 1 });
    await say(there, "UALICE", `I'm a pilot. ${marker}`);
    await posts(there.channel, 1);
    await eventually(async () => (await modelRequests(marker)).length >= 2, 15_000, "the extraction to start");
    await say(there, "UBOB", `<@UCAROL> see you at noon. bob-${id}`, false);

    await say(here, "UALICE", "forget me");
    expect((await posts(here.channel, 1))[0]!.text).toBe(FORGET_CONFIRMATION);
    await settle(4_000);
    expect(await factsOf(team, "UALICE")).toBe("");
    // Nor is anything she said left in the other conversation, where Bob's message stays.
    const log = JSON.stringify(await redis.zrange(`${PREFIX}:conv:slack|${team}|${there.channel}|:log`, 0, -1));
    expect(log).not.toContain("pilot");
    expect(log).toContain(`bob-${id}`);
  });

  it("forgets three times an hour and confirms each; past that says once that it did not, then stays quiet", async () => {
    const place = newSlackPlace("FGT");
    const texts = async () => (await slackPosts(place.channel)).map((p) => p.text);
    for (let i = 1; i <= 4; i++) {
      await say(place, "UREPEAT", "forget me");
      await posts(place.channel, i);
    }
    await say(place, "UREPEAT", "forget me");
    await settle(QUIET_MS);
    expect(await texts()).toEqual([FORGET_CONFIRMATION, FORGET_CONFIRMATION, FORGET_CONFIRMATION, FORGET_LIMIT_NOTICE]);
    // Only "forget me" is limited: a question still gets its answer.
    await say(place, "UREPEAT", `what's new? q-${place.id}`);
    expect((await posts(place.channel, 5)).at(-1)!.text).toContain(`q-${place.id}`);
  });

  it("reaches a thread whose first message was theirs, even when they never wrote in the thread", async () => {
    const place = newSlackPlace("FGT");
    const parentTs = distinctSlackTs();
    await fetch(`${SLACK_FAKE_ORIGIN}/__messages`, {
      method: "POST",
      body: JSON.stringify({
        channel: place.channel,
        ts: parentTs,
        user: "UALICE",
        text: `my new address is 12 Elm St. parent-${place.id}`,
      }),
    });
    const reply = slackMessageEvent({
      ...place,
      user: "UBOB",
      text: `<@${BOT_USER_ID}> where does she live now? b-${place.id}`,
      ts: distinctSlackTs(),
      threadTs: parentTs,
    });
    await callWorker(env, await signedSlackRequest(reply.body));
    await eventually(async () => (await slackPosts(place.channel)).length >= 1, 15_000, "the answer in the thread");
    // The thread was read whole when the bot was called into it: its parent is in the conversation's log.
    const log = `${PREFIX}:conv:slack|${place.team}|${place.channel}|${parentTs}:log`;
    expect(JSON.stringify(await redis.zrange(log, 0, -1))).toContain(`parent-${place.id}`);

    await say({ team: place.team, channel: `${place.channel}DM` }, "UALICE", "forget me");
    await eventually(async () => (await slackPosts(`${place.channel}DM`)).length >= 1, 15_000, "the confirmation");
    expect(JSON.stringify(await redis.zrange(log, 0, -1))).not.toContain(`parent-${place.id}`);
  });

  it("over SMS, forgets when 'forget me' is followed within the burst window by another text, and answers that too", async () => {
    const from = newSender();
    const send = async (body: string) =>
      expect((await callWorker(env, await signedSmsRequest(env, smsParams({ from, body })))).status).toBe(200);
    await send(`My name is Dana. first-${from}`);
    await eventually(async () => (await smsSentTo(from)).length === 1, 15_000, "the first answer");
    const person = { platform: "twilio", tenant: TWILIO_ACCOUNT_SID };
    await eventually(async () => (await storedFacts(redis, PREFIX, person, from)).includes("Dana"), 15_000, "the fact");

    await send("forget me");
    await send(`and what's a good book? next-${from}`);
    await eventually(async () => (await smsSentTo(from)).length === 3, 15_000, "the confirmation and the answer");
    expect((await smsSentTo(from)).map((s) => s.body)).toContain(FORGET_CONFIRMATION);
    expect(await storedFacts(redis, PREFIX, person, from)).not.toContain("Dana");
  });
});
