/**
 * Which message of a Slack thread a retry takes as its answer's, when an earlier attempt's open never came back
 * (lib/platforms/slack/earlier-open.ts): only a stream still at exactly the words this answer opened with and never
 * stopped, or a first part that carries this answer's metadata; never another answer's stream.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSlackFake, type RunningSlackFake } from "../../dev/fakes/slack.ts";
import { logger } from "../../lib/log.ts";
import { findEarlierOpen } from "../../lib/platforms/slack/earlier-open.ts";
import { partMetadata } from "../../lib/platforms/slack/find-part.ts";

let slack: RunningSlackFake;
const TOKEN = "xoxb-test-token";
const THREAD = "1715000000.000100";
const ANSWER = "D0EARLY01:1715000000.000200";

beforeAll(async () => void (slack = await startSlackFake({ port: 0 })));
afterAll(() => slack.close());
beforeEach(async () => void (await fetch(slack.url.replace(/\/api$/, "/__reset"), { method: "POST", body: "{}" })));

async function slackCall(method: string, body: Record<string, unknown>): Promise<{ ok: boolean; ts?: string }> {
  const res = await fetch(`${slack.url}/${method}`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { ok: boolean; ts?: string };
}

async function startStream(channel: string, text: string): Promise<string> {
  const started = await slackCall("chat.startStream", { channel, thread_ts: THREAD, markdown_text: text });
  expect(started.ok).toBe(true);
  return started.ts!;
}

async function slackControl(path: string, body: unknown): Promise<void> {
  const res = await fetch(slack.url.replace(/\/api$/, path), { method: "POST", body: JSON.stringify(body) });
  expect(res.ok).toBe(true);
}

const place = (channel: string) => ({ channel, threadTs: THREAD, apiBaseUrl: slack.url, botToken: TOKEN, log: logger });
const since = Date.now() - 1_000;

describe("findEarlierOpen", () => {
  it("takes the never-stopped stream that shows exactly an opening of this answer, beside another answer's open stream", async () => {
    await startStream("D0EARLY01", "Another answer, still being written");
    const ours = await startStream("D0EARLY01", "Sure");
    expect(await findEarlierOpen(place("D0EARLY01"), ANSWER, { since, openings: ["Sure"] })).toEqual({
      mode: "native",
      state: { id: ours, mode: "native", shown: "Sure", open: true },
    });
  });

  it("takes no stream whose text is not one of this answer's openings, nor one an answer stopped", async () => {
    await startStream("D0EARLY02", "Another answer, still being written");
    const stopped = await startStream("D0EARLY02", "Sure");
    expect(
      (
        await slackCall("chat.stopStream", {
          channel: "D0EARLY02",
          ts: stopped,
          metadata: partMetadata("someone else's", 0),
        })
      ).ok,
    ).toBe(true);
    expect(await findEarlierOpen(place("D0EARLY02"), ANSWER, { since, openings: ["Sure", "Hello"] })).toBeNull();
  });

  it("takes a first part that carries this answer's metadata, to edit", async () => {
    const stopped = await startStream("D0EARLY03", "Sure, here");
    expect(
      (await slackCall("chat.stopStream", { channel: "D0EARLY03", ts: stopped, metadata: partMetadata(ANSWER, 0) })).ok,
    ).toBe(true);
    expect(await findEarlierOpen(place("D0EARLY03"), ANSWER, { since, openings: ["Sure"] })).toEqual({
      mode: "edit",
      ts: stopped,
    });
  });

  it("takes a stream Slack ended unfinished (`errored`) as closed: finished with an edit, never appended to", async () => {
    await slackControl("/__config", { streaming: { lifetimeMs: 30 } });
    const ended = await startStream("D0EARLY04", "Sure");
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await findEarlierOpen(place("D0EARLY04"), ANSWER, { since, openings: ["Sure"] })).toEqual({
      mode: "native",
      state: { id: ended, mode: "native", shown: "Sure", open: false },
    });
  });
});
