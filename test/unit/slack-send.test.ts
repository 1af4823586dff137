import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSlackFake, type RecordedSlackPost, type RunningSlackFake } from "../../dev/fakes/slack.ts";
import { GiveUp, RetryLater } from "../../lib/errors.ts";
import { logger } from "../../lib/log.ts";
import { PlatformRateLimited, RATE_LIMIT_WAIT_IN_JOB_MAX_SECONDS } from "../../lib/platforms/rate-limited.ts";
import { ANSWER_PART_EVENT } from "../../lib/platforms/slack/find-part.ts";
import { postSlackMessage, SLACK_MAX_MESSAGE_CHARS } from "../../lib/platforms/slack/send.ts";
import { partProgress } from "../support/parts.ts";

let slack: RunningSlackFake;
const TOKEN = "xoxb-test-token";

beforeAll(async () => {
  slack = await startSlackFake({ port: 0 });
});
afterAll(async () => {
  await slack.close();
});
beforeEach(async () => {
  await control("/__reset", {});
});

async function control(path: string, body: unknown): Promise<void> {
  const res = await fetch(slack.url.replace(/\/api$/, path), { method: "POST", body: JSON.stringify(body) });
  expect(res.status).toBe(200);
}

async function posts(channel: string): Promise<RecordedSlackPost[]> {
  const res = await fetch(`${slack.url.replace(/\/api$/, "/__calls")}?channel=${channel}`);
  return (await res.json()) as RecordedSlackPost[];
}

const post = (channel: string, text: string, extra: Partial<Parameters<typeof postSlackMessage>[0]> = {}) =>
  postSlackMessage({
    apiBaseUrl: slack.url,
    botToken: TOKEN,
    channel,
    text,
    tenant: "T0FAKETEAM",
    progress: partProgress(),
    log: logger,
    ...extra,
  });

async function apiCalls(method: string, channel: string): Promise<unknown[]> {
  return (await (
    await fetch(`${slack.url.replace(/\/api$/, "/__api")}?method=${method}&channel=${channel}`)
  ).json()) as unknown[];
}

const words = (text: string) => text.split(/\s+/).filter(Boolean);

function longAnswer(paragraphs: number): string {
  return Array.from(
    { length: paragraphs },
    (_, i) => `Part ${i + 1}. ${"Lorem ipsum dolor sit amet. ".repeat(60)}`,
  ).join("\n\n");
}

describe("postSlackMessage", () => {
  it("posts a short answer once, in the thread it was asked in, tagged with the answer's id and the part's index", async () => {
    const progress = partProgress({ answerId: "C0CHAN001:1715000000.000100" });
    const ts = await post("C0CHAN001", "Sure: run the checklist in #ops.", { threadTs: "1715000000.000100", progress });
    expect(ts).toHaveLength(1);
    expect(await posts("C0CHAN001")).toEqual([
      {
        channel: "C0CHAN001",
        text: "Sure: run the checklist in #ops.",
        markup: "markdown",
        thread_ts: "1715000000.000100",
        ts: ts[0],
        team: "T0FAKETEAM",
        metadata: { event_type: ANSWER_PART_EVENT, event_payload: { trigger: "C0CHAN001:1715000000.000100", part: 0 } },
      },
    ]);
    expect(progress.started).toEqual([0]);
    expect(progress.accepted).toEqual(ts);
  });

  it("splits a long answer into messages of at most 4,000 characters, posted in order", async () => {
    const text = longAnswer(8);
    const ts = await post("C0LONG001", text);
    const sent = await posts("C0LONG001");
    expect(sent.length).toBeGreaterThan(2);
    expect(sent.map((p) => p.ts)).toEqual(ts);
    expect(sent.every((p) => p.text.length <= SLACK_MAX_MESSAGE_CHARS)).toBe(true);
    expect(words(sent.map((p) => p.text).join(" "))).toEqual(words(text));
    expect(sent[0]!.text.startsWith("Part 1.")).toBe(true);
  });

  it("posts markdown_text with Slack's tokens escaped, so model output cannot ping the whole channel", async () => {
    await post("C0CHAN002", "<!channel> a < b & c > d");
    const [posted] = await posts("C0CHAN002");
    expect(posted!.text).toBe("&lt;!channel&gt; a &lt; b & c &gt; d");
    expect(posted!.markup).toBe("markdown");
  });

  it("puts the permalinks it carries on the workspace's own domain, as auth.test names it", async () => {
    await post("C0LINK001", "Decided [here](https://app.slack.com/archives/C0LINK001/p1715000000000100).");
    expect((await posts("C0LINK001"))[0]!.text).toBe(
      "Decided [here](https://fake-workspace.slack.com/archives/C0LINK001/p1715000000000100).",
    );
  });

  it("waits out a short 429 and posts once", async () => {
    await control("/__fail", { channel: "C0BUSY002", status: 429, retryAfter: 1 });
    expect(await post("C0BUSY002", "hello")).toHaveLength(1);
    expect(await posts("C0BUSY002")).toHaveLength(1);
  });

  it("hands a 429 with a longer Retry-After back as PlatformRateLimited with Slack's seconds, having posted nothing", async () => {
    const retryAfter = RATE_LIMIT_WAIT_IN_JOB_MAX_SECONDS + 25;
    await control("/__fail", { channel: "C0BUSY001", status: 429, retryAfter });
    const error = await post("C0BUSY001", "hello").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformRateLimited);
    expect((error as RetryLater).retryAfterSeconds).toBe(retryAfter);
    expect(await posts("C0BUSY001")).toEqual([]);
    expect(await post("C0BUSY001", "hello")).toHaveLength(1);
  });

  it("throws GiveUp on a permanent ok:false error, without the text in the message", async () => {
    await control("/__fail", { channel: "C0GONE001", error: "is_archived" });
    const error = await post("C0GONE001", "a private answer").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GiveUp);
    expect((error as GiveUp).code).toBe("is_archived");
    expect((error as Error).message).not.toContain("private answer");
  });

  it("gives up on a channel Slack does not know and on a bad token", async () => {
    expect(await post("#general", "hi").catch((e: unknown) => (e as GiveUp).code)).toBe("channel_not_found");
    const badToken = postSlackMessage({
      apiBaseUrl: slack.url,
      botToken: "nope",
      channel: "C0CHAN001",
      text: "hi",
      tenant: "T0FAKETEAM",
      progress: partProgress(),
      log: logger,
    });
    expect(await badToken.catch((e: unknown) => (e as GiveUp).code)).toBe("invalid_auth");
  });

  it("throws a plain, retryable error on a transient ok:false error or a 5xx", async () => {
    await control("/__fail", { channel: "C0FLAKY01", error: "internal_error" });
    const okFalse = await post("C0FLAKY01", "hi").catch((e: unknown) => e);
    expect(okFalse).toBeInstanceOf(Error);
    expect(okFalse).not.toBeInstanceOf(GiveUp);
    await control("/__fail", { channel: "C0FLAKY01", status: 503 });
    const http = await post("C0FLAKY01", "hi").catch((e: unknown) => e);
    expect((http as Error).message).toContain("503");
    expect(http).not.toBeInstanceOf(RetryLater);
  });

  it("resumes an interrupted long answer without reposting the chunks already sent", async () => {
    const text = longAnswer(8);
    // The first chunk goes through, then Slack rate-limits the second one.
    await control("/__fail", {
      channel: "C0HALF001",
      status: 429,
      retryAfter: RATE_LIMIT_WAIT_IN_JOB_MAX_SECONDS + 1,
      after: 1,
    });
    const first = partProgress();
    const interrupted = await post("C0HALF001", text, { progress: first }).catch((e: unknown) => e);
    expect(interrupted).toBeInstanceOf(RetryLater);
    expect(first.accepted).toHaveLength(1);
    expect(first.started).toEqual([0, 1]);
    const rest = partProgress({ answerId: first.answerId, from: 1 });
    await post("C0HALF001", text, { progress: rest });
    const delivered = await posts("C0HALF001");
    expect([first.accepted[0], ...rest.accepted.slice(1)]).toEqual(delivered.map((p) => p.ts));
    expect(words(delivered.map((p) => p.text).join(" "))).toEqual(words(text));
  });

  it.each([
    ["channel", undefined, "conversations.history"],
    ["thread", "1715000000.000200", "conversations.replies"],
  ])(
    "finds, in a %s, the part an earlier attempt posted without hearing back, instead of posting it again",
    async (_where, threadTs, method) => {
      const channel = threadTs ? "C0LOSTT01" : "C0LOST001";
      const since = Date.now();
      await control("/__fail", {
        fault: "drop_after",
        path: "/chat.postMessage",
        bodyContains: `"channel":"${channel}"`,
      });
      const lost = partProgress();
      expect(
        await post(channel, "The answer you waited for.", { progress: lost, ...(threadTs ? { threadTs } : {}) }).catch(
          (e: unknown) => e,
        ),
      ).toBeInstanceOf(Error);
      expect(lost.accepted).toEqual([]);
      const retry = partProgress({ answerId: lost.answerId, unsure: { since } });
      const found = await post(channel, "The answer you waited for.", {
        progress: retry,
        ...(threadTs ? { threadTs } : {}),
      });
      const delivered = await posts(channel);
      expect(delivered).toHaveLength(1);
      expect(found).toEqual([delivered[0]!.ts]);
      expect(retry.accepted).toEqual(found);
      expect(retry.started).toEqual([]);
      expect(await apiCalls(method!, channel)).toHaveLength(1);
    },
  );

  it("posts the part again when the earlier attempt's call never landed, and tells it from another answer's part", async () => {
    const since = Date.now();
    await post("C0NEVER01", "Another answer, same place.");
    await control("/__fail", { channel: "C0NEVER01", status: 503 });
    const lost = partProgress();
    expect(await post("C0NEVER01", "Mine.", { progress: lost }).catch((e: unknown) => e)).toBeInstanceOf(Error);
    const retry = partProgress({ answerId: lost.answerId, unsure: { since } });
    await post("C0NEVER01", "Mine.", { progress: retry });
    expect((await posts("C0NEVER01")).map((p) => p.text)).toEqual(["Another answer, same place.", "Mine."]);
    expect(retry.started).toEqual([0]);
  });

  it("never takes another app's message that carries this answer's metadata for its part: only the bot's own count", async () => {
    const since = Date.now();
    const progress = partProgress();
    // The trigger's id is no secret: another app posts Parley's metadata for it first.
    await control("/__messages", {
      channel: "C0FORGED1",
      user: "U0OTHERBOT",
      bot_id: "B0OTHER01",
      text: "Not Parley's answer.",
      metadata: { event_type: ANSWER_PART_EVENT, event_payload: { trigger: progress.answerId, part: 0 } },
    });
    const retry = partProgress({ answerId: progress.answerId, unsure: { since } });
    await post("C0FORGED1", "Parley's answer.", { progress: retry });
    expect((await posts("C0FORGED1")).map((p) => p.text)).toEqual(["Parley's answer."]);
    expect(retry.started).toEqual([0]);
  });

  it("posts nothing for an empty answer", async () => {
    expect(await post("C0EMPTY01", "  ")).toEqual([]);
    expect(await posts("C0EMPTY01")).toEqual([]);
  });
});
