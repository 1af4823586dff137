/**
 * TENANT_DAILY_TOKEN_BUDGET: past its day's model tokens a tenant is told once, and no model call is made after.
 */
import { describe, expect, it } from "vitest";
import { BUDGET_NOTICE, PERSON_BUDGET_NOTICE } from "../../lib/notices.ts";
import { modelRequests, scriptModel } from "../support/model.ts";
import {
  BOT_USER_ID,
  distinctSlackTs,
  newSlackPlace,
  signedSlackRequest,
  slackMessageEvent,
  slackPosts,
} from "../support/slack.ts";
import { callWorker, eventually, pumpJobsDuringSuite, settle, suiteEnv } from "../support/worker.ts";

// One answer of the local model uses about a hundred tokens: the first answer spends the day's budget.
const ADMIN_TOKEN = "admin-token-for-budget-tests-0123456789";
// A streamed answer reports its usage on the stream's last chunk: it must count as a whole one's does.
const modes = [
  { mode: "written whole", env: suiteEnv("budget", { TENANT_DAILY_TOKEN_BUDGET: "50", ADMIN_TOKEN }) },
  {
    mode: "streamed",
    env: suiteEnv("budgetstream", { TENANT_DAILY_TOKEN_BUDGET: "50", ADMIN_TOKEN, STREAMING: "true" }),
  },
];
pumpJobsDuringSuite(modes[0]!.env, "budget");
pumpJobsDuringSuite(modes[1]!.env, "budgetstream");

describe.each(modes)("a tenant's daily token budget, answers $mode", ({ env }) => {
  async function mention(place: { team: string; channel: string }, user: string, text: string): Promise<void> {
    const event = slackMessageEvent({ ...place, user, text: `<@${BOT_USER_ID}> ${text}`, ts: distinctSlackTs() });
    expect((await callWorker(env, await signedSlackRequest(event.body))).status).toBe(200);
  }

  it("is told once when its budget is spent, then gets no model call; another tenant still gets answers", async () => {
    const place = newSlackPlace("BUD");
    await mention(place, "UONE", `first question ${place.id}-1`);
    await eventually(async () => (await slackPosts(place.channel)).length === 1, 15_000, "the first answer");

    await mention(place, "UTWO", `second question ${place.id}-2`);
    const posts = await eventually(
      async () => {
        const all = await slackPosts(place.channel);
        return all.length === 2 && all;
      },
      15_000,
      "the notice",
    );
    expect(posts[1]!.text).toBe(BUDGET_NOTICE);

    await mention(place, "UONE", `third question ${place.id}-3`);
    const other = newSlackPlace("BUDOTHER");
    await mention(other, "UONE", `a question elsewhere ${other.id}`);
    await eventually(async () => (await slackPosts(other.channel)).length === 1, 15_000, "the other tenant's answer");
    await settle(1_000);
    expect(await slackPosts(place.channel)).toHaveLength(2);
    expect(await modelRequests(`${place.id}-2`)).toEqual([]);
    expect(await modelRequests(`${place.id}-3`)).toEqual([]);

    const view = await callWorker(
      env,
      new Request(`https://bot.test/admin/tenants/slack/${place.team}`, {
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
      }),
    );
    const usage = ((await view.json()) as { usage: { tokens: number; budget: number; told: boolean } }).usage;
    expect(usage).toMatchObject({ budget: 50, told: true });
    expect(usage.tokens).toBeGreaterThanOrEqual(50);
  });
});

describe("what the daily budgets count", () => {
  const SHARE_SUITE = "budgetshare";
  // The local model's answer costs about a hundred tokens: a 10% share of 1,500 is spent by one answer.
  const env = suiteEnv(SHARE_SUITE, {
    TENANT_DAILY_TOKEN_BUDGET: "1500",
    PERSON_DAILY_TOKEN_SHARE: "10",
    ADMIN_TOKEN,
    STREAMING: "true",
  });
  pumpJobsDuringSuite(env, SHARE_SUITE);
  const mention = async (place: { team: string; channel: string }, user: string, text: string) => {
    const event = slackMessageEvent({ ...place, user, text: `<@${BOT_USER_ID}> ${text}`, ts: distinctSlackTs() });
    expect((await callWorker(env, await signedSlackRequest(event.body))).status).toBe(200);
  };
  const usage = async (team: string) => {
    const view = await callWorker(
      env,
      new Request(`https://bot.test/admin/tenants/slack/${team}`, {
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
      }),
    );
    return ((await view.json()) as { usage: { tokens: number } }).usage.tokens;
  };

  it("keeps one member to their share of the tenant's day: told once, then quiet; others still answered", async () => {
    const place = newSlackPlace("SHARE");
    await mention(place, "UGREEDY", `first ${place.id}-1`);
    await eventually(async () => (await slackPosts(place.channel)).length === 1, 15_000, "the first answer");
    await mention(place, "UGREEDY", `second ${place.id}-2`);
    await eventually(async () => (await slackPosts(place.channel)).length === 2, 15_000, "the notice");
    expect((await slackPosts(place.channel))[1]!.text).toBe(PERSON_BUDGET_NOTICE);
    await mention(place, "UGREEDY", `third ${place.id}-3`);
    // Another member of the same workspace, in another channel (so that this channel's talk is not in their prompt).
    const elsewhere = { ...place, channel: `${place.channel}B` };
    await mention(elsewhere, "UOTHER", `another person ${place.id}-4`);
    await eventually(
      async () => (await slackPosts(elsewhere.channel)).length === 1,
      15_000,
      "the other member's answer",
    );
    await settle(1_000);
    expect(await slackPosts(place.channel)).toHaveLength(2);
    expect(await modelRequests(`${place.id}-2`)).toEqual([]);
    expect(await modelRequests(`${place.id}-3`)).toEqual([]);
  });

  it("counts a streamed answer that ends in [SKIP], whose stream is left before its usage comes", async () => {
    const place = newSlackPlace("SKIPCOUNT");
    const marker = `${place.id}-skip`;
    await scriptModel({ match: marker, reply: "[SKIP]", times: 1 });
    // Not addressed to the bot by a mention: the name, so the answer is not required and [SKIP] ends it silently.
    const event = slackMessageEvent({ ...place, user: "UQUIET", text: `Parley, nothing for you here ${marker}` });
    expect((await callWorker(env, await signedSlackRequest(event.body))).status).toBe(200);
    await eventually(async () => (await modelRequests(marker)).length === 1, 15_000, "the model call");
    await eventually(async () => (await usage(place.team)) > 0, 10_000, "the call counted");
    expect(await slackPosts(place.channel)).toEqual([]);
  });
});
