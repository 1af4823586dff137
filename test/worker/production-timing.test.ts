/**
 * @module
 * The Worker at production timing (test/support/README.md): QStash on its real retry schedule with a virtual clock,
 * Redis behind the fault proxy, and "time passes" moving both. A failed first attempt is retried 12 s later and
 * answered exactly once, whether the post, QStash or Redis failed.
 */
import { describe, expect, it } from "vitest";
import { CLAIM_REPLY } from "../../lib/conversation/claim-scripts.ts";
import { evalshaMatch, injectedFaults, scriptFault } from "../support/fault-control.ts";
import { ALL_RETRIES_MS, prodTimingSuite, QSTASH_RETRY_DELAYS_MS } from "../support/prod-timing.ts";
import { failSlackPosts, newSlackChannel, signedSlackRequest, slackMention, slackPosts } from "../support/slack.ts";
import { callWorker, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "prodtiming";
const TEAM = "TPRODTIMING";
const [FIRST_RETRY_MS] = QSTASH_RETRY_DELAYS_MS;
const REPLY_PATH = `/t/${SUITE}/jobs/reply`;
const kit = prodTimingSuite(SUITE);

pumpJobsDuringSuite(kit.env, SUITE);

const newChannel = () => newSlackChannel("CPT");

async function mention(channel: string, text: string): Promise<void> {
  const event = slackMention({ team: TEAM, channel, user: "UALICE", text });
  expect((await callWorker(kit.env, await signedSlackRequest(event.body))).status).toBe(200);
}

describe("a Slack mention at production timing", () => {
  it("whose first post fails is answered once by QStash's retry 12 s later, and by nothing after", async () => {
    const channel = newChannel();
    await failSlackPosts({ channel, status: 500, times: 1 });
    await mention(channel, "what time is it?");

    const first = await kit.deliveriesSettled();
    expect(first.deliveries).toMatchObject([{ path: REPLY_PATH, retried: 0, status: 500, outcome: "retry" }]);
    expect(await slackPosts(channel)).toEqual([]);
    expect((await kit.timePasses(FIRST_RETRY_MS - 1)).deliveries).toEqual([]);
    expect((await kit.timePasses(1)).deliveries).toMatchObject([
      { path: REPLY_PATH, retried: 1, status: 200, outcome: "done" },
    ]);
    expect(await slackPosts(channel)).toHaveLength(1);
    expect((await kit.timePasses(ALL_RETRIES_MS)).deliveries).toEqual([]);
    expect(await slackPosts(channel)).toHaveLength(1);
  });

  it("whose job answer QStash loses after the post is redelivered 12 s later and not posted again", async () => {
    const channel = newChannel();
    // The job payload carries ids, not the text: match the reply job by its channel.
    await scriptFault(kit.qstashUrl, { fault: "lose_answer", path: REPLY_PATH, bodyContains: channel });
    await mention(channel, "say it once");
    expect((await kit.deliveriesSettled()).deliveries).toMatchObject([{ retried: 0, status: null, outcome: "retry" }]);
    expect(await injectedFaults(kit.qstashUrl, { fault: "lose_answer" })).toMatchObject([
      { path: REPLY_PATH, status: 200 },
    ]);
    expect(await slackPosts(channel)).toHaveLength(1);
    const retry = await kit.timePasses(FIRST_RETRY_MS);
    expect(retry.deliveries).toMatchObject([{ retried: 1, status: 200, outcome: "done" }]);
    expect(await slackPosts(channel)).toHaveLength(1);
  });

  it("whose reply claim Redis refuses once (5xx before it ran) is answered once by the retry 12 s later", async () => {
    const channel = newChannel();
    const claimCall = await evalshaMatch(
      CLAIM_REPLY.source,
      CLAIM_REPLY.keyNames.length,
      `${kit.keyPrefix}conv:slack|${TEAM}|${channel}|`,
    );
    await scriptFault(kit.redisProxyControlUrl, { fault: "refuse", bodyContains: claimCall, status: 503 });
    await mention(channel, "are you there?");

    expect((await kit.deliveriesSettled()).deliveries).toMatchObject([{ retried: 0, status: 500, outcome: "retry" }]);
    expect(await injectedFaults(kit.redisProxyControlUrl, { fault: "refuse" })).toHaveLength(1);
    expect(await slackPosts(channel)).toEqual([]);
    expect((await kit.timePasses(FIRST_RETRY_MS)).deliveries).toMatchObject([
      { retried: 1, status: 200, outcome: "done" },
    ]);
    expect(await slackPosts(channel)).toHaveLength(1);
  });
});
