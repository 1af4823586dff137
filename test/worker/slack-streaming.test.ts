/**
 * @module
 * Slack answers streamed as they are written (issue #15): one message that grows and ends closed, whatever
 * happens to the job meanwhile; a fallback to a posted message edited as it grows where Slack will not stream;
 * a sign that the bot is working; never a stream for an answer that turns out to be [SKIP].
 */
import { describe, expect, it } from "vitest";
import { ConversationStore } from "../../lib/conversation/store.ts";
import { Redis } from "@upstash/redis/cloudflare";
import { scriptFault } from "../support/fault-control.ts";
import { modelRequests, scriptModel } from "../support/model.ts";
import { BOT_USER_ID, newSlackChannel, signedSlackRequest, slackMessageEvent } from "../support/slack.ts";
import { botMessages, configureSlackFake, slackApiCalls, unescapeSlack, watchBotText } from "../support/streams.ts";
import {
  callWorker,
  eventually,
  MODEL_CONTROL_URL,
  pumpJobsDuringSuite,
  SLACK_API_BASE_URL,
  suiteEnv,
} from "../support/worker.ts";

const SUITE = "slackstream";
const TEAM = "TSLACKSTREAM";
const env = suiteEnv(SUITE, { STREAMING: "true", SHOW_WORKING: "true" });
const store = new ConversationStore(
  new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) }),
  {
    prefix: `t-${SUITE}`,
    ttlSeconds: () => 120,
    maxMessages: 200,
  },
);
/** A few seconds of answer: long enough to be seen growing, with a list and a code block. */
const PACE = "[[local-model tokens=160 tps=80 first_ms=150]]";

pumpJobsDuringSuite(env, SUITE);

async function ask(channel: string, text: string, threadTs?: string): Promise<void> {
  const event = slackMessageEvent({
    team: TEAM,
    channel,
    user: "UALICE",
    text: `<@${BOT_USER_ID}> ${text}`,
    ...(threadTs ? { threadTs } : {}),
  });
  expect((await callWorker(env, await signedSlackRequest(event.body))).status).toBe(200);
}

/** The bot's recorded answer in the place, as the conversation keeps it. */
async function recordedAnswer(channel: string, thread?: string): Promise<string | undefined> {
  const state = await store.load({ platform: "slack", tenant: TEAM, channel, ...(thread ? { thread } : {}) });
  return state?.recent.find((m) => m.role === "assistant")?.text;
}

const answered = (channel: string, thread?: string) =>
  eventually(() => recordedAnswer(channel, thread), 20_000, "the answer recorded");

describe("a Slack answer in a thread", () => {
  it("streams into one message that grows and ends closed, holding the whole answer", async () => {
    const channel = newSlackChannel("CSTR");
    const thread = "1700000000.000100";
    await ask(channel, `explain streams ${PACE}`, thread);
    const seen = await watchBotText(channel, async () => (await recordedAnswer(channel, thread)) !== undefined);
    const answer = await answered(channel, thread);
    const [message, ...others] = await botMessages(channel);
    expect(others).toEqual([]);
    expect(message).toMatchObject({ thread_ts: thread, streaming_state: "completed" });
    expect(unescapeSlack(message!.text)).toBe(answer);
    expect(seen.length).toBeGreaterThan(1);
    expect(message!.revisions.map((r) => r.method)).toContain("chat.appendStream");
    // The working sign: a reaction on the question, taken off once the answer showed.
    expect((await slackApiCalls("reactions.add", channel)).map((c) => c.ok)).toEqual([true]);
    expect((await slackApiCalls("reactions.remove", channel)).map((c) => c.ok)).toEqual([true]);
  });

  it("on Enterprise Grid streams to the person's own workspace (T…), not the tenant key (E…:T…) Slack refuses", async () => {
    const channel = newSlackChannel("CSTG");
    const thread = "1700000000.000300";
    const envelope = JSON.parse(
      slackMessageEvent({
        team: TEAM,
        channel,
        user: "W0ALICE01",
        text: `<@${BOT_USER_ID}> explain grids ${PACE}`,
        threadTs: thread,
      }).body,
    ) as Record<string, unknown>;
    envelope.enterprise_id = "E0STREAMORG";
    expect((await callWorker(env, await signedSlackRequest(JSON.stringify(envelope)))).status).toBe(200);
    const state = () => store.load({ platform: "slack", tenant: `E0STREAMORG:${TEAM}`, channel, thread });
    await eventually(
      async () => (await state())?.recent.find((m) => m.role === "assistant"),
      20_000,
      "the answer recorded",
    );
    const started = await slackApiCalls("chat.startStream", channel);
    expect(started.map((c) => c.ok)).toEqual([true]);
    const [message] = await botMessages(channel);
    expect(message).toMatchObject({ thread_ts: thread, streaming_state: "completed" });
  });

  it("killed mid-stream and retried, leaves one message with the whole answer and its stream closed", async () => {
    const channel = newSlackChannel("CSTK");
    const thread = "1700000000.000200";
    const marker = `marker-${channel}`;
    // The model's connection drops mid-answer on the first attempt only.
    await scriptFault(MODEL_CONTROL_URL, { fault: "drop_after", path: "/chat.completions", bodyContains: marker });
    await ask(channel, `tell me everything ${marker} ${PACE}`, thread);
    const answer = await answered(channel, thread);
    expect((await modelRequests(marker)).length).toBe(2);
    const [message, ...others] = await botMessages(channel);
    expect(others).toEqual([]);
    expect(message!.streaming_state).toBe("completed");
    expect(unescapeSlack(message!.text)).toBe(answer);
    expect(await slackApiCalls("chat.startStream", channel)).toHaveLength(1);
    expect(await slackApiCalls("chat.postMessage", channel)).toEqual([]);
  });

  it("left open by a job that died without closing it, is closed by the retry with the whole answer", async () => {
    const channel = newSlackChannel("CSTO");
    const thread = "1700000000.000300";
    const marker = `marker-${channel}`;
    await scriptFault(MODEL_CONTROL_URL, { fault: "drop_after", path: "/chat.completions", bodyContains: marker });
    // The failing attempt's own stopStream fails too: only the retry can close the stream.
    await scriptFault(SLACK_API_BASE_URL.replace(/\/api$/, ""), {
      fault: "refuse",
      path: "/chat.stopStream",
      bodyContains: `"channel":"${channel}"`,
      status: 500,
    });
    await ask(channel, `and once more ${marker} ${PACE}`, thread);
    const answer = await answered(channel, thread);
    const [message, ...others] = await botMessages(channel);
    expect(others).toEqual([]);
    expect(message!.streaming_state).toBe("completed");
    expect(unescapeSlack(message!.text)).toBe(answer);
  });
});

describe("where Slack will not stream", () => {
  it("posts the answer and edits it as it grows, an open code fence always shown closed, its language left out", async () => {
    const channel = newSlackChannel("CSTF");
    const thread = "1700000000.000400";
    const marker = `marker-${channel}`;
    const code = Array.from({ length: 12 }, (_, i) => `const step${i} = compute(${i});`).join("\n");
    const reply = `Here is how:\n\n\`\`\`js\n${code}\n\`\`\`\n\nThat is all.`;
    // Slow enough inside the code block for edits to land there.
    await scriptModel({ match: marker, reply, tokensPerSecond: 25 });
    await configureSlackFake({ streaming: { refusedChannels: [channel] } });
    await ask(channel, `show me code ${marker}`, thread);
    const seen = await watchBotText(channel, async () => (await recordedAnswer(channel, thread)) !== undefined);
    const answer = await answered(channel, thread);
    expect(answer).toBe(reply);
    const [refused] = await slackApiCalls("chat.startStream", channel);
    expect(refused).toMatchObject({ ok: false, error: "channel_type_not_supported" });
    const [message, ...others] = await botMessages(channel);
    expect(others).toEqual([]);
    // Slack's markdown_text shows no code block's language: the fence goes without it (lib/platforms/slack/format.ts).
    expect(message!.text).toBe(answer.replace("```js", "```"));
    expect(message!.markup).toBe("markdown");
    const midCode = seen.filter((text) => text.includes("```\nconst step0") && !text.includes("That is all."));
    expect(midCode.length).toBeGreaterThan(0);
    for (const text of seen) expect(text.split("```").length % 2).toBe(1);
    expect(message!.revisions.filter((r) => r.method === "chat.update").length).toBeGreaterThan(1);
  });

  it("in a channel (no thread) the answer is a channel message edited as it grows", async () => {
    const channel = newSlackChannel("CSTC");
    await ask(channel, `top level please ${PACE}`);
    const answer = await answered(channel);
    const [message, ...others] = await botMessages(channel);
    expect(others).toEqual([]);
    expect(message!.thread_ts).toBeUndefined();
    expect(unescapeSlack(message!.text)).toBe(answer);
    expect(await slackApiCalls("chat.startStream", channel)).toEqual([]);
  });
});

describe("a stream's first post whose answer never came back", () => {
  it("is found by the retry and finished, never posted twice", async () => {
    const channel = newSlackChannel("CSTD");
    await scriptFault(SLACK_API_BASE_URL.replace(/\/api$/, ""), {
      fault: "drop_after",
      path: "/chat.postMessage",
      bodyContains: `"channel":"${channel}"`,
    });
    await ask(channel, `did it land? ${PACE}`);
    const answer = await answered(channel);
    const [message, ...others] = await botMessages(channel);
    expect(others).toEqual([]);
    expect(unescapeSlack(message!.text)).toBe(answer);
    expect(await slackApiCalls("chat.postMessage", channel)).toHaveLength(1);
  });
});

describe("a stream whose start was carried out but whose answer never came back", () => {
  it("is found by the retry and finished with the whole answer, never a second stream beside it", async () => {
    const channel = newSlackChannel("CSTL");
    const thread = "1700000000.000400";
    await scriptFault(SLACK_API_BASE_URL.replace(/\/api$/, ""), {
      fault: "drop_after",
      path: "/chat.startStream",
      bodyContains: `"channel":"${channel}"`,
    });
    await ask(channel, `did my stream land? ${PACE}`, thread);
    const answer = await answered(channel, thread);
    const [message, ...others] = await botMessages(channel);
    expect(others).toEqual([]);
    expect(message).toMatchObject({ thread_ts: thread, streaming_state: "completed" });
    expect(unescapeSlack(message!.text)).toBe(answer);
    expect(await slackApiCalls("chat.startStream", channel)).toHaveLength(1);
    expect(await slackApiCalls("chat.postMessage", channel)).toEqual([]);
  });
});

describe("an answer that starts with [SKIP]", () => {
  it("never opens a stream with it: a required answer streams only the nudged answer", async () => {
    const channel = newSlackChannel("CSTS");
    const thread = "1700000000.000500";
    const marker = `marker-${channel}`;
    await scriptModel(
      { match: marker, reply: "[SKIP]", times: 1 },
      { match: marker, reply: "Here is my real answer." },
    );
    await ask(channel, `are you there? ${marker}`, thread);
    const answer = await answered(channel, thread);
    expect(answer).toBe("Here is my real answer.");
    const [message] = await botMessages(channel);
    expect(message!.text).toBe(answer);
    expect(message!.revisions.every((r) => r.chars > 0)).toBe(true);
    expect(await slackApiCalls("chat.startStream", channel)).toHaveLength(1);
  });
});
