/**
 * TENANT_DAILY_TOKEN_BUDGET: past its day's model tokens a tenant is told once, and no model call is made after.
 */
import { describe, expect, it } from "vitest";
import { BUDGET_NOTICE } from "../../lib/notices.ts";
import { modelRequests } from "../support/model.ts";
import { BOT_USER_ID, distinctSlackTs, newSlackPlace, signedSlackRequest, slackMessageEvent, slackPosts } from "../support/slack.ts";
import { callWorker, eventually, pumpJobsDuringSuite, settle, suiteEnv } from "../support/worker.ts";

// One answer of the local model uses about a hundred tokens: the first answer spends the day's budget.
const ADMIN_TOKEN = "admin-token-for-budget-tests-0123456789";
// A streamed answer reports its usage on the stream's last chunk: it must count as a whole one's does.
const modes = [
  { mode: "written whole", env: suiteEnv("budget", { TENANT_DAILY_TOKEN_BUDGET: "50", ADMIN_TOKEN }) },
  { mode: "streamed", env: suiteEnv("budgetstream", { TENANT_DAILY_TOKEN_BUDGET: "50", ADMIN_TOKEN, STREAMING: "true" }) },
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
    const posts = await eventually(async () => {
      const all = await slackPosts(place.channel);
      return all.length === 2 && all;
    }, 15_000, "the notice");
    expect(posts[1]!.text).toBe(BUDGET_NOTICE);

    await mention(place, "UONE", `third question ${place.id}-3`);
    const other = newSlackPlace("BUDOTHER");
    await mention(other, "UONE", `a question elsewhere ${other.id}`);
    await eventually(async () => (await slackPosts(other.channel)).length === 1, 15_000, "the other tenant's answer");
    await settle(1_000);
    expect(await slackPosts(place.channel)).toHaveLength(2);
    expect(await modelRequests(`${place.id}-2`)).toEqual([]);
    expect(await modelRequests(`${place.id}-3`)).toEqual([]);

    const view = await callWorker(env, new Request(`https://bot.test/admin/tenants/slack/${place.team}`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } }));
    const usage = ((await view.json()) as { usage: { tokens: number; budget: number; told: boolean } }).usage;
    expect(usage).toMatchObject({ budget: 50, told: true });
    expect(usage.tokens).toBeGreaterThanOrEqual(50);
  });
});
