/**
 * @module
 * A streamed answer whose model goes quiet mid-answer (issue #15): what left 1-3 of 300 Slack answers in
 * bench:chaos showing only their first characters. The model's response had begun, so the client's own timeout
 * (which ends at the headers) no longer applied: the attempt waited on the next chunk, holding its claim and an
 * open stream, and every QStash retry and the failure callback found the claim busy. The stream must fail once it
 * has been quiet for LLM_TIMEOUT_MS, and the retry finish that same message with the whole answer.
 */
import { describe, expect, it } from "vitest";
import { Redis } from "@upstash/redis/cloudflare";
import { ConversationStore } from "../../lib/conversation/store.ts";
import { modelRequests, scriptModel } from "../support/model.ts";
import { BOT_USER_ID, newSlackChannel, signedSlackRequest, slackMessageEvent } from "../support/slack.ts";
import { botMessages, slackApiCalls, unescapeSlack } from "../support/streams.ts";
import { callWorker, eventually, pumpJobsDuringSuite, suiteEnv } from "../support/worker.ts";

const SUITE = "streamstalled";
const TEAM = "TSTREAMSTALLED";
// Short enough for the test to see the quiet stream fail, long enough for a normal answer's pauses on a busy machine.
const env = suiteEnv(SUITE, { STREAMING: "true", LLM_TIMEOUT_MS: "2500" });
const store = new ConversationStore(
  new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) }),
  {
    prefix: `t-${SUITE}`,
    ttlSeconds: () => 120,
    maxMessages: 200,
  },
);

pumpJobsDuringSuite(env, SUITE);

describe("a Slack stream whose model goes quiet mid-answer", () => {
  it("fails the attempt, and the retry finishes the same message with the whole answer, its stream closed", async () => {
    const channel = newSlackChannel("CSTQ");
    const thread = "1700000000.000600";
    const marker = `marker-${channel}`;
    const reply = "Streams are sent piece by piece, so the person sees the answer as it is written.";
    // The first answer's opening words come at once, the next ones only after ten minutes: a stalled upstream.
    await scriptModel(
      { match: marker, reply, firstTokenMs: 50, tokensPerSecond: 1 / 600, times: 1 },
      { match: marker, reply },
    );
    const event = slackMessageEvent({
      team: TEAM,
      channel,
      user: "UALICE",
      text: `<@${BOT_USER_ID}> how do streams work? ${marker}`,
      threadTs: thread,
    });
    expect((await callWorker(env, await signedSlackRequest(event.body))).status).toBe(200);

    const recorded = () =>
      store
        .load({ platform: "slack", tenant: TEAM, channel, thread })
        .then((s) => s?.recent.find((m) => m.role === "assistant")?.text);
    const answer = await eventually(recorded, 20_000, "the answer recorded");
    expect(answer).toBe(reply);
    expect(await modelRequests(marker)).toHaveLength(2);
    const [message, ...others] = await botMessages(channel);
    expect(others).toEqual([]);
    expect(message!.streaming_state).toBe("completed");
    expect(unescapeSlack(message!.text)).toBe(reply);
    expect(await slackApiCalls("chat.startStream", channel)).toHaveLength(1);
  });
});
