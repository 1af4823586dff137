/**
 * @module
 * A streamed answer whose job is killed outright mid-stream (issue #15), at production timing: the attempt's draft
 * then says no more than the stream's first words, while the message shows more. The retry (after the dead
 * attempt's claim ran out) stops that stream as it stands and replaces its text with the whole answer in one edit:
 * one message, the whole answer, once, the stream closed.
 */
import { describe, expect, it } from "vitest";
import { RELEASE_CLAIM } from "../../lib/conversation/claim-scripts.ts";
import { ConversationStore } from "../../lib/conversation/store.ts";
import { evalshaMatch, scriptFault } from "../support/fault-control.ts";
import { ALL_RETRIES_MS, prodTimingSuite, QSTASH_RETRY_DELAYS_MS } from "../support/prod-timing.ts";
import { BOT_USER_ID, newSlackChannel, signedSlackRequest, slackMessageEvent } from "../support/slack.ts";
import { botMessages, unescapeSlack } from "../support/streams.ts";
import {
  callWorker,
  eventually,
  MODEL_CONTROL_URL,
  pumpJobsDuringSuite,
  SLACK_API_BASE_URL,
} from "../support/worker.ts";

const SUITE = "streamkilled";
const TEAM = "TSTREAMKILLED";
/** RELEASE_CLAIM's keys: reply, claim. */
const RELEASE_CLAIM_KEYS = 2;
const [FIRST_RETRY_MS, SECOND_RETRY_MS] = QSTASH_RETRY_DELAYS_MS;
// The conversation outlives the dead attempt's 90 s claim and QStash's retry after it.
const kit = prodTimingSuite(SUITE, { STREAMING: "true", CONVERSATION_TIMEOUT_SECONDS: "900" });
const store = new ConversationStore(kit.redis, { prefix: `t-${SUITE}`, ttlSeconds: () => 600, maxMessages: 200 });

pumpJobsDuringSuite(kit.env, SUITE);

describe("a Slack stream whose job is killed outright mid-answer", () => {
  it("is finished by the retry as one message holding the whole answer, its stream closed", async () => {
    const channel = newSlackChannel("CKIL");
    const thread = "1700000000.000900";
    const marker = `marker-${channel}`;
    // The model's connection drops halfway (4 s in at 25 tokens a second: appends have gone out even on a loaded
    // machine), and the attempt cannot leave its draft behind: as if it died there.
    await scriptFault(MODEL_CONTROL_URL, { fault: "drop_after", path: "/chat.completions", bodyContains: marker });
    await scriptFault(kit.redisProxyControlUrl, {
      fault: "refuse",
      bodyContains: await evalshaMatch(
        RELEASE_CLAIM.source,
        RELEASE_CLAIM_KEYS,
        `${kit.keyPrefix}reply:slack|${TEAM}|${channel}`,
      ),
      status: 503,
    });
    // Nor can it close its stream.
    await scriptFault(SLACK_API_BASE_URL.replace(/\/api$/, ""), {
      fault: "refuse",
      path: "/chat.stopStream",
      bodyContains: `"channel":"${channel}"`,
      status: 500,
    });
    const event = slackMessageEvent({
      team: TEAM,
      channel,
      user: "UALICE",
      text: `<@${BOT_USER_ID}> tell me ${marker} [[local-model tokens=200 tps=25 first_ms=100]]`,
      threadTs: thread,
    });
    expect((await callWorker(kit.env, await signedSlackRequest(event.body))).status).toBe(200);
    await kit.deliveriesSettled();
    const [dying] = await botMessages(channel);
    expect(dying!.revisions.map((r) => r.method)).toContain("chat.appendStream");
    expect(dying!.streaming_state).toBe("in_progress");

    // QStash's retries come on their schedule; the first ones find the dead attempt's claim still held.
    await kit.timePasses(FIRST_RETRY_MS + SECOND_RETRY_MS);
    const answer = await eventually(
      async () =>
        (await store.load({ platform: "slack", tenant: TEAM, channel, thread }))?.recent.find(
          (m) => m.role === "assistant",
        )?.text,
      5_000,
      "the answer",
    );
    await kit.timePasses(ALL_RETRIES_MS);
    const [message, ...others] = await botMessages(channel);
    expect(others).toEqual([]);
    expect(message!.streaming_state).toBe("completed");
    expect(unescapeSlack(message!.text)).toBe(answer);
  });
});
