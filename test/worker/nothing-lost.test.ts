/**
 * @module
 * Nothing lost at production timing (issue #12, items 4 and 5): a trigger that no answer saw gets its own answer,
 * however late its delivery comes; a message that was recorded but never published is published by its
 * redelivery, whether the webhook's QStash publish or the ingest script's answer was lost.
 */
import { describe, expect, it } from "vitest";
import { INGEST } from "../../lib/conversation/scripts.ts";
import { evalshaMatch, injectedFaults, scriptFault } from "../support/fault-control.ts";
import { ALL_RETRIES_MS, prodTimingSuite } from "../support/prod-timing.ts";
import { newSlackChannel, signedSlackRequest, slackMention, slackPosts } from "../support/slack.ts";
import {
  BOT_NUMBER,
  newSender,
  signedSmsRequest,
  smsParams,
  smsSentTo,
  TWILIO_ACCOUNT_SID,
  TWILIO_AUTH_TOKEN,
} from "../support/twilio.ts";
import { callWorker, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "nothinglost";
const TEAM = "TNOTHINGLOST";
const REPLY_PATH = `/t/${SUITE}/jobs/reply`;
/**
 * INGEST's keys for a Slack message: state, log, seen, reply, claim, the author's index of places, the place's
 * settings.
 */
const INGEST_KEYS = 7;
const kit = prodTimingSuite(SUITE, { TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_PHONE_NUMBER: BOT_NUMBER });

pumpJobsDuringSuite(kit.env, SUITE);

const newChannel = () => newSlackChannel("CNL");
const mentionEvent = (channel: string, user: string, text: string) => slackMention({ team: TEAM, channel, user, text });

/** Delivers a Slack event as Slack does (`retry` > 0: Slack's n-th retry of it); answers the HTTP status. */
async function deliver(event: { body: string }, retry = 0): Promise<number> {
  const headers: Record<string, string> =
    retry > 0 ? { "X-Slack-Retry-Num": String(retry), "X-Slack-Retry-Reason": "http_error" } : {};
  const res = await callWorker(kit.env, await signedSlackRequest(event.body, { headers }));
  await res.body?.cancel();
  return res.status;
}

/** The next publish of a reply job is refused (the webhook's QStash client retries network errors only). */
const refusePublish = () => scriptFault(kit.qstashUrl, { fault: "refuse_publish", path: REPLY_PATH, status: 503 });

describe("a mention whose delivery failed and comes again after another mention was answered", () => {
  it("by another person (recorded, never published) gets its own answer", async () => {
    const channel = newChannel();
    const bob = mentionEvent(channel, "UBOB", "bob asks first: which train goes to the coast?");
    await refusePublish();
    expect(await deliver(bob)).toBe(503);
    expect(await deliver(mentionEvent(channel, "UALICE", "alice asks second: is it raining there?"))).toBe(200);
    await kit.deliveriesSettled();
    expect(await slackPosts(channel)).toHaveLength(1);

    expect(await deliver(bob, 1)).toBe(200);
    expect((await kit.deliveriesSettled()).deliveries).toMatchObject([{ path: REPLY_PATH, status: 200 }]);
    const posts = await slackPosts(channel);
    expect(posts).toHaveLength(2);
    expect(posts[1]!.text).toContain("which train goes to the coast");
  });

  it("by the same person (never recorded: Redis refused it) gets its own answer", async () => {
    const channel = newChannel();
    const first = mentionEvent(channel, "UCAROL", "carol's first question: when does the museum open?");
    const ingest = await evalshaMatch(INGEST.source, INGEST_KEYS, `${kit.keyPrefix}conv:slack|${TEAM}|${channel}|`);
    await scriptFault(kit.redisProxyControlUrl, { fault: "refuse", bodyContains: ingest, status: 503 });
    expect(await deliver(first)).toBe(503);
    expect(await deliver(mentionEvent(channel, "UCAROL", "carol's second question: and the café?"))).toBe(200);
    await kit.deliveriesSettled();
    expect(await slackPosts(channel)).toHaveLength(1);

    expect(await deliver(first, 1)).toBe(200);
    await kit.deliveriesSettled();
    const posts = await slackPosts(channel);
    expect(posts).toHaveLength(2);
    expect(posts[1]!.text).toContain("when does the museum open");
    await kit.timePasses(ALL_RETRIES_MS);
    expect(await slackPosts(channel)).toHaveLength(2);
  });
});

describe("a message recorded but never published", () => {
  it("is published when the ingest script ran but its answer was lost (the client's own retry finds it seen)", async () => {
    const channel = newChannel();
    const ingest = await evalshaMatch(INGEST.source, INGEST_KEYS, `${kit.keyPrefix}conv:slack|${TEAM}|${channel}|`);
    await scriptFault(kit.redisProxyControlUrl, { fault: "drop_after", bodyContains: ingest });
    expect(await deliver(mentionEvent(channel, "UDAN", "are you there?"))).toBe(200);
    expect(await injectedFaults(kit.redisProxyControlUrl, { fault: "drop_after" })).toHaveLength(1);
    await kit.deliveriesSettled();
    expect(await slackPosts(channel)).toHaveLength(1);
  });

  it("is published by Twilio's fallback delivery of an SMS after the QStash publish failed", async () => {
    const from = newSender();
    const params = smsParams({ from, body: "what time do you close tonight?" });
    await refusePublish();
    const first = await callWorker(kit.env, await signedSmsRequest(kit.env, params));
    expect(first.status).toBe(503);
    await first.body?.cancel();
    const fallback = await callWorker(kit.env, await signedSmsRequest(kit.env, params));
    expect(fallback.status).toBe(200);
    await fallback.body?.cancel();
    await kit.timePasses(5_000);
    expect(await smsSentTo(from)).toHaveLength(1);
    await kit.timePasses(ALL_RETRIES_MS);
    expect(await smsSentTo(from)).toHaveLength(1);
  });
});
