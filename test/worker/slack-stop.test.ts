/**
 * @module
 * Stop on a Slack answer as it is written (docs/platforms/slack.md, "Stop"). A top-level channel answer, posted and
 * edited as it grows, carries a Stop button on its progress edits: the asker's press ends it within one more edit,
 * the message keeping what was written with "(stopped by …)" (its button gone), the model's stream ended, the
 * answer recorded so; a workspace admin may stop it too; a stranger's press changes nothing and is told privately
 * who can stop it. In a thread,
 * Slack's own Stop on its stream (`stopped_by_user`) ends the answer the same way. Presses are Slack's documented
 * block_actions (test/fixtures/platforms/slack/block-actions.json).
 */
import { Redis } from "@upstash/redis/cloudflare";
import { describe, expect, it } from "vitest";
import { ConversationStore } from "../../lib/conversation/store.ts";
import {
  BOT_USER_ID,
  distinctSlackTs,
  newSlackPlace,
  SLACK_CONTROL,
  signedSlackInteraction,
  signedSlackRequest,
  slackBlockActionsBody,
  slackMessageEvent,
} from "../support/slack.ts";
import { type SlackFakeMessage, slackMessages } from "../support/streams.ts";
import { callWorker, eventually, pumpJobsDuringSuite, settle, suiteEnv } from "../support/worker.ts";

const SUITE = "slackstop";
const env = suiteEnv(SUITE, { STREAMING: "true" });
pumpJobsDuringSuite(env, SUITE);
const store = new ConversationStore(
  new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) }),
  { prefix: `t-${SUITE}`, ttlSeconds: () => 120, maxMessages: 200 },
);
/** About ten seconds of answer, shown growing once a second. */
const PACE = "[[local-model tokens=400 tps=40 first_ms=100]]";

type Place = ReturnType<typeof newSlackPlace>;
/** The stopped answer's length, against the whole answer's of the same question. */
let stoppedChars = 0;
type Message = SlackFakeMessage & { blocks?: { type: string; block_id?: string; elements?: { value?: string }[] }[] };

async function ask(place: Place, threadTs?: string): Promise<string> {
  const ts = distinctSlackTs();
  const text = `<@${BOT_USER_ID}> tell me about rollbacks ${PACE}`;
  const event = slackMessageEvent({ ...place, user: "UASKER", text, ts, ...(threadTs ? { threadTs } : {}) });
  expect((await callWorker(env, await signedSlackRequest(event.body))).status).toBe(200);
  return ts;
}

const answerIn = async (place: Place): Promise<Message | undefined> =>
  ((await slackMessages(place.channel)) as Message[]).find((m) => m.bot_id);

const stopValue = (m: Message | undefined) =>
  m?.blocks?.find((b) => b.block_id === "parley_stop")?.elements?.[0]?.value;

/** `user` pressing the Stop button of message `m`, as Slack posts it. */
async function pressStop(place: Place, user: { id: string; name: string }, m: Message): Promise<void> {
  const action = { action_id: "stop", block_id: "parley_stop", value: stopValue(m) ?? "" };
  const body = slackBlockActionsBody(place, user, m.ts, action);
  expect((await callWorker(env, await signedSlackInteraction(body))).status).toBe(200);
}

/** The answer once its message is no longer growing (its button gone, or its stream completed). */
const finished = (place: Place) =>
  eventually(
    async () => {
      const m = await answerIn(place);
      return m && !stopValue(m) && m.streaming_state !== "in_progress" && m.text.length > 0 ? m : undefined;
    },
    30_000,
    "the finished answer",
  );

const recorded = async (place: Place, thread?: string) =>
  eventually(
    async () => {
      const key = {
        platform: "slack" as const,
        tenant: place.team,
        channel: place.channel,
        ...(thread ? { thread } : {}),
      };
      return (await store.load(key))?.recent.find((m) => m.role === "assistant")?.text;
    },
    20_000,
    "the recorded answer",
  );

const withButton = (place: Place) =>
  eventually(
    async () => {
      const m = await answerIn(place);
      return stopValue(m) ? m : undefined;
    },
    20_000,
    "the answer with its Stop button",
  );

describe("Stop on an answer edited as it grows", () => {
  it("ends it within one edit when the asker presses it, keeping what was written and who stopped it", async () => {
    const place = newSlackPlace("STOP");
    await ask(place);
    const growing = await withButton(place);
    const editsBefore = growing.revisions.length;
    await pressStop(place, { id: "UASKER", name: "alice" }, growing);
    const done = await finished(place);
    // At most the edit that read the mark, then the final one.
    expect(done.revisions.length - editsBefore).toBeLessThanOrEqual(2);
    expect(done.text).toMatch(/\(stopped by alice\)_?\s*$/);
    expect(done.blocks?.some((b) => b.block_id === "parley_stop") ?? false).toBe(false);
    await settle(1_500);
    expect((await answerIn(place))?.revisions.length).toBe(done.revisions.length);
    expect(await recorded(place)).toMatch(/\(stopped by alice\)_$/);
    const key = { platform: "slack" as const, tenant: place.team, channel: place.channel };
    const state = await store.load(key);
    expect((await store.recentAnswers(key, state!.id))[0]).toMatchObject({ stopped: true });
    stoppedChars = done.text.length;
  });

  it("ends it when a workspace admin presses it", async () => {
    const place = newSlackPlace("STOPA");
    // The fake answers users.info for the workspace of the bot's token (its default team).
    await fetch(`${SLACK_CONTROL}/__roles`, { method: "POST", body: JSON.stringify({ admins: ["UBOSS"] }) });
    await ask(place);
    await pressStop(place, { id: "UBOSS", name: "boss" }, await withButton(place));
    expect((await finished(place)).text).toMatch(/\(stopped by boss\)_?\s*$/);
  });

  it("changes nothing when someone else presses it, and tells them who can", async () => {
    const place = newSlackPlace("STOPX");
    await ask(place);
    await pressStop(place, { id: "USTRANGER", name: "mallory" }, await withButton(place));
    const url = `${SLACK_CONTROL}/__ephemerals?${new URLSearchParams({ channel: place.channel, user: "USTRANGER" })}`;
    const notes = ((await (await fetch(url)).json()) as { text: string }[]).map((e) => e.text);
    expect(notes).toEqual(["Only <@UASKER> or an admin can stop this answer."]);
    const done = await finished(place);
    expect(done.text).not.toContain("stopped by");
    expect(await recorded(place)).not.toContain("stopped by");
    // The same question answered whole is much longer than what the Stop kept.
    expect(stoppedChars).toBeGreaterThan(0);
    expect(stoppedChars).toBeLessThan(done.text.length / 2);
  });
});

describe("Slack's own Stop on a streamed thread answer", () => {
  it("ends the answer as it stands, saying the asker stopped it", async () => {
    const place = newSlackPlace("STOPT");
    const root = distinctSlackTs();
    await ask(place, root);
    const streaming = await eventually(
      async () => {
        const m = (await slackMessages(place.channel)).find((x) => x.bot_id && x.streaming_state === "in_progress");
        return m && m.text.length > 0 ? m : undefined;
      },
      20_000,
      "the streaming answer",
    );
    const stopped = await fetch(`${SLACK_CONTROL}/__stop_stream`, {
      method: "POST",
      body: JSON.stringify({ channel: place.channel, ts: streaming.ts }),
    });
    expect(stopped.status).toBe(200);
    // Slack's stream ends (chat.stopStream) before the edit that leaves the answer as written: wait for that.
    const stoppedBy = /\(stopped by UASKER\)_?\s*$/;
    const done = await eventually(
      async () => ((await answerIn(place))?.text.match(stoppedBy) ? answerIn(place) : undefined),
      30_000,
      "the stopped answer",
    );
    expect(done?.streaming_state).not.toBe("in_progress");
    expect(await recorded(place, root)).toMatch(/\(stopped by UASKER\)_$/);
  });
});
