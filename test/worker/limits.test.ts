import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CUT_MARK, capMessageText } from "../../lib/limits/message-length.ts";
import { RATE_LIMIT_NOTICE } from "../../lib/notices.ts";
import type { InboundMessage } from "../../lib/message.ts";
import { sealJob } from "../../lib/queue/sealed-job.ts";
import { createRuntime } from "../../lib/runtime.ts";
import { qstashSignature } from "../../dev/signers/qstash.ts";
import { modelRequests, scriptModel } from "../support/model.ts";
import { BOT_USER_ID, signedSlackRequest, slackMessageEvent, slackPosts } from "../support/slack.ts";
import { workerClock } from "../support/worker-clock.ts";
import { callWorker, eventually, startJobPump, suiteEnv, type JobPump } from "../support/worker.ts";

const SUITE = "limits";
const env = suiteEnv(SUITE, {
  RATE_LIMIT_REPLIES: "2",
  MAX_MESSAGE_CHARS: "200",
  MAX_JUDGE_CALLS_PER_MINUTE: "2",
  MEMORY_ENABLED: "false",
  SUMMARY_ENABLED: "false",
});
/** The production window (RATE_LIMIT_WINDOW_SECONDS' default), on a clock the tests move. */
const WINDOW_MS = 60_000;
const clock = workerClock(env);
const pumps: JobPump[] = [];
let seq = 0;

beforeAll(() => {
  pumps.push(startJobPump(env, SUITE));
});
afterAll(async () => {
  await Promise.all(pumps.map((p) => p.stop()));
});

function newChannel(): string {
  seq += 1;
  return `CL${Date.now().toString(36).toUpperCase()}${seq}`;
}

/** Sends a mention and waits for its job's `job_ended` line, so the next message comes after it. */
async function mentionAndWait(channel: string, user: string, text: string): Promise<void> {
  // A timestamp of now on the Worker's clock (not of the whole second): an answer covers every message older than
  // itself.
  const ts = (clock.now() / 1000).toFixed(6);
  const event = slackMessageEvent({ team: "TLIMITS", channel, user, text: `<@${BOT_USER_ID}> ${text}`, ts });
  const logs = vi.spyOn(console, "log");
  try {
    expect((await callWorker(env, await signedSlackRequest(event.body))).status).toBe(200);
    const ended = (line: unknown) =>
      String(line).includes('"event":"job_ended"') && String(line).includes(`"trigger":"${channel}:${ts}"`);
    await eventually(async () => logs.mock.calls.some((c) => ended(c[0])), 20_000, "the job to end");
  } finally {
    logs.mockRestore();
  }
}

async function postedTexts(channel: string): Promise<string[]> {
  return (await slackPosts(channel)).map((p) => p.text);
}

describe("the per-person reply rate limit", () => {
  it("answers up to the limit, says so once, then stays quiet", async () => {
    const channel = newChannel();
    clock.toNextWindow(WINDOW_MS);
    for (let i = 1; i <= 5; i++) await mentionAndWait(channel, "UFAST", `question ${i}`);
    const posts = await postedTexts(channel);
    expect(posts).toHaveLength(3);
    expect(posts.slice(0, 2)).not.toContain(RATE_LIMIT_NOTICE);
    expect(posts[2]).toBe(RATE_LIMIT_NOTICE);
  });

  it("counts each person separately", async () => {
    const channel = newChannel();
    await mentionAndWait(channel, "UCALM1", "one");
    await mentionAndWait(channel, "UCALM2", "two");
    await mentionAndWait(channel, "UCALM3", "three");
    expect(await postedTexts(channel)).not.toContain(RATE_LIMIT_NOTICE);
  });

  it("does not count a retried job twice", async () => {
    const channel = newChannel();
    const marker = `retried-${channel}`;
    await scriptModel({ match: marker, status: 500, times: 2 });
    await mentionAndWait(channel, "URETRY", `first ${marker}`);
    await eventually(async () => (await postedTexts(channel)).length === 1, 20_000, "the answer after retries");
    await mentionAndWait(channel, "URETRY", "second");
    expect(await postedTexts(channel)).not.toContain(RATE_LIMIT_NOTICE);
  });

  it("answers again once the window has passed", async () => {
    const channel = newChannel();
    clock.toNextWindow(WINDOW_MS);
    for (const text of ["one", "two", "three"]) await mentionAndWait(channel, "UPAUSE", text);
    expect(await postedTexts(channel)).toHaveLength(3);
    expect((await postedTexts(channel))[2]).toBe(RATE_LIMIT_NOTICE);
    // Windows are fixed: a whole window later, the count has started again.
    clock.passes(WINDOW_MS);
    await mentionAndWait(channel, "UPAUSE", "four");
    const posts = await postedTexts(channel);
    expect(posts).toHaveLength(4);
    expect(posts[3]).not.toBe(RATE_LIMIT_NOTICE);
  });
});

describe("the message length cap", () => {
  it("cuts a long message before it is stored or reaches the prompt", async () => {
    const channel = newChannel();
    const marker = `long-${channel}`;
    await mentionAndWait(channel, "ULONG", `${marker} ${"filler ".repeat(1_000)} TAIL-${marker}`);
    const [request] = await modelRequests(marker);
    const prompt = JSON.stringify(request!.messages);
    expect(prompt).not.toContain(`TAIL-${marker}`);
    expect(request!.messages.at(-1)!.content.length).toBeLessThan(600);
  });

  it("never cuts inside a surrogate pair", () => {
    const text = `${"a".repeat(9)}😀b`;
    expect(capMessageText(text, 10)).toBe("a".repeat(9) + CUT_MARK);
    expect(capMessageText("short", 10)).toBe("short");
  });
});

describe("the judge cap", () => {
  it("asks the model at most MAX_JUDGE_CALLS_PER_MINUTE times per conversation and answers NO beyond", async () => {
    const rt = createRuntime(env);
    const channel = newChannel();
    const marker = `judgecap-${channel}`;
    await scriptModel({ match: marker, reply: "NO", times: 100 });
    const key = { platform: "slack" as const, tenant: "TLIMITS", channel };
    const outcomes: unknown[] = [];
    clock.toNextWindow(60_000);
    for (let i = 0; i < 4; i++) {
      const ts = Date.now() + i;
      const msg: InboundMessage = {
        key,
        id: `${channel}:${ts}`,
        author: { id: "UCHATTY", name: "Chatty", isBot: false },
        text: `${marker} musing ${i}`,
        ts,
        addressing: "none",
        mentions: [],
        replyTarget: { platform: "slack", channel },
      };
      const { state } = await rt.store.record(msg, { startIfIdle: true, reset: false });
      const job = JSON.stringify(
        await sealJob(
          {
            key,
            conversationId: state.id,
            trigger: { id: msg.id, ts, authorId: "UCHATTY", authorName: "Chatty" },
            required: false,
            reason: "no_trigger",
            bot: { userId: BOT_USER_ID, name: "Parley", aliases: [] },
            replyTarget: { platform: "slack", channel },
          },
          rt.secrets.jobs,
        ),
      );
      const url = `${String(env.PUBLIC_BASE_URL)}/jobs/judge`;
      const signature = await qstashSignature(String(env.QSTASH_CURRENT_SIGNING_KEY), url, job);
      const res = await callWorker(
        env,
        new Request("https://worker.test/jobs/judge", {
          method: "POST",
          headers: { "Upstash-Signature": signature },
          body: job,
        }),
      );
      expect(res.status).toBe(200);
      outcomes.push(await res.json());
    }
    expect(outcomes).toEqual(Array.from({ length: 4 }, () => ({ outcome: "judge_no" })));
    expect(await modelRequests(marker)).toHaveLength(2);
    expect(await slackPosts(channel)).toEqual([]);
  });
});
