import { Redis } from "@upstash/redis/cloudflare";
import { describe, expect, it } from "vitest";
import { DATA_BLOCK_OPEN } from "../../lib/context/data-block.ts";
import { countPromptTokens, countTokens } from "../../lib/context/tokens.ts";
import { ConversationStore } from "../../lib/conversation/store.ts";
import { summaryMaxTokens } from "../../lib/memory/fold.ts";
import { modelRequests } from "../support/model.ts";
import { BOT_USER_ID, distinctSlackTs, signedSlackRequest, slackMessageEvent, slackPosts } from "../support/slack.ts";
import {
  callWorker,
  eventually,
  jobsQuiet,
  pumpJobsDuringSuite,
  SLACK_API_BASE_URL,
  suiteEnv,
} from "../support/worker.ts";

const SUITE = "memsum";
/**
 * Small, so the conversation outgrows it within a few turns and folds many times over 300 messages; room enough
 * for the fixed part (the reserve for lib/llm, the system message with the data block's declaration, the current
 * message's record: about 300 tokens as lib/context/tokens.ts counts them) and a summary.
 */
const BUDGET = 450;
/** 150 questions and 150 answers. */
const TURNS = 150;
// Facts off: the earliest detail can only come back through the summary. One person asks 150 times: no reply limit.
const env = suiteEnv(SUITE, {
  PROMPT_TOKEN_BUDGET: String(BUDGET),
  MEMORY_ENABLED: "false",
  SUMMARY_ENABLED: "true",
  CONVERSATION_TIMEOUT_SECONDS: "600",
  RATE_LIMIT_REPLIES: "1000",
});
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
const store = new ConversationStore(redis, { prefix: `t-${SUITE}`, ttlSeconds: () => 600, maxMessages: 200 });

const pump = pumpJobsDuringSuite(env, SUITE);

describe("a long conversation", () => {
  it("keeps answering over 300 messages with the earliest detail reachable through the summary, within budget at every turn", {
    timeout: 300_000,
  }, async () => {
    const id = Date.now().toString(36).toUpperCase();
    const place = { team: `TSUM${id}`, channel: `CSUM${id}` };
    // 150 answers in one channel: at Slack's real pace (about one post a second) the test would wait 150 s for
    // something it does not test. This channel alone may post faster; every other channel keeps the real limit.
    await fetch(`${SLACK_API_BASE_URL.replace(/\/api$/, "")}/__config`, {
      method: "POST",
      body: JSON.stringify({ rateLimits: { channels: { [place.channel]: { limit: 1_000, windowMs: 1_000 } } } }),
    });
    const say = async (turn: number, text: string) => {
      const event = slackMessageEvent({
        ...place,
        user: "UOWNER",
        text: `<@${BOT_USER_ID}> ${text}`,
        ts: distinctSlackTs(),
      });
      expect((await callWorker(env, await signedSlackRequest(event.body))).status).toBe(200);
      await eventually(async () => (await slackPosts(place.channel)).length === turn, 20_000, `answer ${turn}`);
      // The fold runs as its own job after the answer. Someone who writes again before it ran meets, for that one
      // answer, a window without the earliest detail; this test is about the summary keeping it, so each turn
      // waits for the turn's jobs (the fold among them) to finish, as a person's pace does.
      await jobsQuiet(pump, 150, 10_000);
      const [request] = await modelRequests(`turn${turn}-${id}`);
      return request!;
    };

    const tokensPerTurn: number[] = [];
    for (let turn = 1; turn < TURNS; turn++) {
      const text =
        turn === 1
          ? `my dog is called Biscuit. turn1-${id}`
          : `here is note number ${turn} about the weather today. turn${turn}-${id}`;
      const request = await say(turn, text);
      const tokens = countPromptTokens(request.messages as never);
      tokensPerTurn.push(tokens);
      expect(tokens, `prompt tokens at turn ${turn}`).toBeLessThanOrEqual(BUDGET);
      expect(JSON.stringify(request.messages), `Biscuit reachable at turn ${turn}`).toContain("Biscuit");
    }

    const last = await say(TURNS, `what is my dog called? turn${TURNS}-${id}`);
    expect(countPromptTokens(last.messages as never)).toBeLessThanOrEqual(BUDGET);
    // The summary travels in the data block after the system message (lib/context/data-block.ts).
    const [system, data, ...turns] = last.messages;
    expect(system!.content).not.toContain("Biscuit");
    expect(data!.content.startsWith(DATA_BLOCK_OPEN)).toBe(true);
    expect(data!.content).toContain("Biscuit");
    // Folded messages left the window: the detail is in the summary only, never twice.
    expect(JSON.stringify(turns)).not.toContain("Biscuit");

    const conversation = await eventually(
      async () => {
        const state = await store.load({ platform: "slack", tenant: place.team, channel: place.channel });
        return state?.summary ? state : undefined;
      },
      5_000,
      "the summary",
    );
    expect(countTokens(String(conversation.summary))).toBeLessThanOrEqual(summaryMaxTokens(BUDGET));
    const log = conversation.recent.map((m) => m.text);
    expect(log.length).toBeGreaterThan(0);
    expect(log.length).toBeLessThan((2 * TURNS) / 5);
    expect(JSON.stringify(log)).not.toContain(`turn1-${id}`);
    console.log(
      JSON.stringify({
        event: "memsum_measured",
        turns: TURNS,
        maxPromptTokens: Math.max(...tokensPerTurn),
        storedMessages: log.length,
      }),
    );
  });
});
