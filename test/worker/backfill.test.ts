/**
 * @module
 * Slack: the first answer of a conversation sees what the room saw (issue #25). Alice and Bob talk in a channel
 * the bot only hears, Carol mentions the bot, and the answer's prompt has their talk, marked as said before the
 * bot was called, read with one `conversations.history` call; a DM's earlier talk with the bot comes back with
 * the bot's own answers as its turns; a person who asked to be forgotten is left out; nothing read becomes a fact
 * about anyone; a workspace that did not grant the history scope gets its answer without it, and the missing
 * scope is logged once for the place.
 */
import { Redis } from "@upstash/redis/cloudflare";
import { describe, expect, it, vi } from "vitest";
import { BACKFILLED_DECLARATION } from "../../lib/context/turns.ts";
import { modelRequests, turnRecords } from "../support/model.ts";
import { INSTALLABLE, installWorkspace, SLACK_FAKE_ORIGIN } from "../support/slack-install.ts";
import { BOT_USER_ID, signedSlackRequest, slackMessageEvent, slackPosts } from "../support/slack.ts";
import { callWorker, eventually, pumpJobsDuringSuite, suiteEnv, type TestEnv } from "../support/worker.ts";

const SUITE = "backfill";
const PERSONA = "You are Parley, reading the room in a test workspace.";
const env = suiteEnv(SUITE, { BOT_PERSONA: PERSONA, MEMORY_ENABLED: "true", BACKFILL_MESSAGES: "30" });
/** Installed per workspace, so that one can be installed without the history scopes. */
const SCOPED_SUITE = "backfillscope";
// Its conversations end 2 s after their last message, so that the test starts a second one in the same place.
const scopedEnv = suiteEnv(SCOPED_SUITE, {
  ...INSTALLABLE,
  BOT_PERSONA: PERSONA,
  CONVERSATION_TIMEOUT_SECONDS: "2",
  BACKFILL_MESSAGES: "30",
});
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
let seq = 0;

pumpJobsDuringSuite(env, SUITE);
pumpJobsDuringSuite(scopedEnv, SCOPED_SUITE);

function newPlace(kind: "C" | "D" = "C") {
  seq += 1;
  const id = `${Date.now().toString(36).toUpperCase()}${seq}`;
  return { team: `TBACK${id}`, channel: `${kind}BACK${id}`, id };
}

/**
 * A message Slack has and the bot never saw arrive (it was not for the bot, or came before it was called): in the
 * fake's default workspace, whose token the suite's SLACK_BOT_TOKEN is, unless `team` names an installed one.
 */
async function inSlack(
  place: { channel: string },
  user: string,
  text: string,
  extra: { bot_id?: string; team?: string; subtype?: string } = {},
): Promise<void> {
  const res = await fetch(`${SLACK_FAKE_ORIGIN}/__messages`, {
    method: "POST",
    body: JSON.stringify({ channel: place.channel, user, text, ...extra }),
  });
  expect(res.ok).toBe(true);
}

async function say(
  to: TestEnv,
  place: { team: string; channel: string },
  user: string,
  text: string,
  channelType?: "im",
): Promise<void> {
  const event = slackMessageEvent({ ...place, user, text, ...(channelType ? { channelType } : {}) });
  expect((await callWorker(to, await signedSlackRequest(event.body))).status).toBe(200);
}

const answered = (channel: string, count: number) =>
  eventually(async () => (await slackPosts(channel)).length >= count, 20_000, `answer ${count}`);
const answerPrompt = async (marker: string) =>
  (await modelRequests(marker)).find((r) => r.messages[0]?.content.includes(PERSONA))!;
const apiCalls = async (method: string, channel: string) =>
  (await (await fetch(`${SLACK_FAKE_ORIGIN}/__api?method=${method}&channel=${channel}`)).json()) as unknown[];

describe("a conversation's first answer on Slack", () => {
  it("sees the channel's talk before the mention, marked as such, read with one call", async () => {
    const place = newPlace();
    await inSlack(place, "UALICE", `the migrations step timed out on the orders table lock deploy-${place.id}`);
    await inSlack(place, "UBOB", "an analytics query held it, roll back to 4.12 or kill the query?");
    await inSlack(place, "UDEPLOYBOT", "deploy 4.13 failed at step 3/7", { bot_id: "BDEPLOY" });
    await inSlack(place, "UDANA", "<@UDANA> has joined the channel", { subtype: "channel_join" });
    await say(env, place, "UCAROL", `<@${BOT_USER_ID}> what do you think, should we roll back? q1-${place.id}`);
    await answered(place.channel, 1);
    const prompt = await answerPrompt(`q1-${place.id}`);
    expect(prompt.messages[0]!.content).toContain(BACKFILLED_DECLARATION);
    expect(turnRecords(prompt).slice(0, 3)).toEqual([
      {
        author: "UALICE",
        text: `the migrations step timed out on the orders table lock deploy-${place.id}`,
        before_you_were_called: true,
      },
      {
        author: "UBOB",
        text: "an analytics query held it, roll back to 4.12 or kill the query?",
        before_you_were_called: true,
      },
      { author: "UDEPLOYBOT", text: "deploy 4.13 failed at step 3/7", before_you_were_called: true, other_bot: true },
    ]);
    // The channel's own notices (a join) are no one's words.
    expect(JSON.stringify((await answerPrompt(`q1-${place.id}`)).messages)).not.toContain("has joined the channel");

    // The follow-up sees them from the conversation: Slack is not asked again.
    await say(env, place, "UCAROL", `<@${BOT_USER_ID}> and who should tell the team? q2-${place.id}`);
    await answered(place.channel, 2);
    expect(JSON.stringify((await answerPrompt(`q2-${place.id}`)).messages)).toContain(`deploy-${place.id}`);
    expect(await apiCalls("conversations.history", place.channel)).toHaveLength(1);
  });

  it("goes without it when the workspace's conversations.history budget is spent, and asks again at the next answer", async () => {
    const place = newPlace();
    await inSlack(place, "UALICE", `the venue is booked for friday venue-${place.id}`);
    // Every call of this minute's window is taken (Tier 3: 25 a window, half of Slack's 50 a minute).
    const window = Math.floor(Date.now() / 60_000);
    await redis.set(`t-${SUITE}:limit:api:slack|${place.team}|conversations.history:${window}`, 25, { ex: 120 });
    await say(env, place, "UCAROL", `<@${BOT_USER_ID}> is the venue booked? b1-${place.id}`);
    await answered(place.channel, 1);
    expect(JSON.stringify((await answerPrompt(`b1-${place.id}`)).messages)).not.toContain(`venue-${place.id}`);
    expect(await apiCalls("conversations.history", place.channel)).toHaveLength(0);
    await redis.del(`t-${SUITE}:limit:api:slack|${place.team}|conversations.history:${window}`);
    await say(env, place, "UCAROL", `<@${BOT_USER_ID}> and for how many people? b2-${place.id}`);
    await answered(place.channel, 2);
    expect(JSON.stringify((await answerPrompt(`b2-${place.id}`)).messages)).toContain(`venue-${place.id}`);
  });

  it("learns no fact about anyone from what it read", async () => {
    const place = newPlace();
    await inSlack(place, "UALICE", `I'm allergic to hazelnuts. nuts-${place.id}`);
    await say(
      env,
      place,
      "UCAROL",
      `<@${BOT_USER_ID}> I live in Lima. What should I bring to the team lunch? lunch-${place.id}`,
    );
    await answered(place.channel, 1);
    const factsOf = (user: string) => redis.get(`t-${SUITE}:facts:slack|${place.team}|${user}`);
    await eventually(async () => JSON.stringify(await factsOf("UCAROL")).includes("Lima"), 20_000, "Carol's own fact");
    expect(await factsOf("UALICE")).toBeNull();
  });

  it("in a DM sees the person's earlier talk with the bot, the bot's answers as its own turns", async () => {
    const place = newPlace("D");
    await inSlack(place, "UDANA", `which train goes to the airport? dm-${place.id}`);
    await inSlack(place, BOT_USER_ID, "The S-Bahn line 8, every ten minutes.", { bot_id: "BPARLEY" });
    await say(env, place, "UDANA", `and how long does it take? dm2-${place.id}`, "im");
    await answered(place.channel, 1);
    const records = turnRecords(await answerPrompt(`dm2-${place.id}`));
    expect(records.slice(0, 2)).toEqual([
      { author: "UDANA", text: `which train goes to the airport? dm-${place.id}`, before_you_were_called: true },
      { bot: "The S-Bahn line 8, every ten minutes." },
    ]);
  });

  it("leaves out a person who asked to be forgotten", async () => {
    const place = newPlace();
    await inSlack(place, "UERIN", `my new address is 4 Elm Street secret-${place.id}`);
    await inSlack(place, "UBOB", `the offsite moves to June offsite-${place.id}`);
    const dm = { team: place.team, channel: `D${place.channel.slice(1)}` };
    await say(env, dm, "UERIN", "forget me", "im");
    await answered(dm.channel, 1);
    await say(env, place, "UCAROL", `<@${BOT_USER_ID}> what did I miss? miss-${place.id}`);
    await answered(place.channel, 1);
    const seen = JSON.stringify((await answerPrompt(`miss-${place.id}`)).messages);
    expect(seen).toContain(`offsite-${place.id}`);
    expect(seen).not.toContain(`secret-${place.id}`);
  });
});

describe("a workspace that did not grant the history scopes", () => {
  it("gets its answer without the earlier talk, and the missing scope is logged once for the place", async () => {
    const warnings = vi.spyOn(console, "warn");
    const place = newPlace();
    await installWorkspace(scopedEnv, {
      id: place.team,
      name: "Scoped",
      scope: "app_mentions:read,chat:write,reactions:write",
    });
    await inSlack(place, "UALICE", `we ship on friday ship-${place.id}`, { team: place.team });
    await say(scopedEnv, place, "UCAROL", `<@${BOT_USER_ID}> when do we ship? s1-${place.id}`);
    await answered(place.channel, 1);
    expect(JSON.stringify((await answerPrompt(`s1-${place.id}`)).messages)).not.toContain(`ship-${place.id}`);
    // A new conversation in the same place within the hour: asked again (and refused), not logged again.
    await eventually(
      async () => (await redis.keys(`t-${SCOPED_SUITE}:conv:*${place.channel}*`)).length === 0,
      15_000,
      "the conversation to end",
    );
    await say(scopedEnv, place, "UCAROL", `<@${BOT_USER_ID}> and the release notes? s2-${place.id}`);
    await answered(place.channel, 2);
    const refused = warnings.mock.calls
      .map((c) => String(c[0]))
      .filter((l) => l.includes('"event":"history_refused"') && l.includes(place.channel));
    expect(refused).toHaveLength(1);
    expect(JSON.parse(refused[0]!)).toMatchObject({ missing: "channels:history" });
    expect(refused[0]).not.toContain("ship");
    warnings.mockRestore();
  });
});
