/**
 * @module
 * Defects bench:chaos found (bench/chaos), each at the ordering the soak hit it, at production timing.
 */
import { describe, expect, it } from "vitest";
import { generateDiscordKeys } from "../../dev/signers/discord.ts";
import { APOLOGY } from "../../lib/notices.ts";
import { askInteraction, discordCalls, failDiscordCalls, snowflake } from "../support/discord.ts";
import { interactAsDiscord } from "../support/discord-worker.ts";
import { scriptModel } from "../support/model.ts";
import { ALL_RETRIES_MS, prodTimingSuite, QSTASH_RETRY_DELAYS_MS } from "../support/prod-timing.ts";
import {
  failSlackPosts,
  newSlackChannel,
  signedSlackRequest,
  slackMention,
  slackMessageEvent,
  slackPosts,
} from "../support/slack.ts";
import { callWorker, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "chaosfound";
const TEAM = "TCHAOSFOUND";
const [FIRST_RETRY_MS] = QSTASH_RETRY_DELAYS_MS;
const kit = prodTimingSuite(SUITE);

pumpJobsDuringSuite(kit.env, SUITE);

const DISCORD_SUITE = "chaosfounddc";
const discordKeys = await generateDiscordKeys();
const discordKit = prodTimingSuite(DISCORD_SUITE, { DISCORD_PUBLIC_KEY: discordKeys.publicKeyHex });

pumpJobsDuringSuite(discordKit.env, DISCORD_SUITE);

/** Delivers a Slack event; `retry` > 0: Slack's n-th retry of it (Slack did not hear the first answer in time). */
async function deliver(event: { body: string }, retry = 0): Promise<number> {
  const headers: Record<string, string> =
    retry > 0 ? { "X-Slack-Retry-Num": String(retry), "X-Slack-Retry-Reason": "http_timeout" } : {};
  const res = await callWorker(kit.env, await signedSlackRequest(event.body, { headers }));
  await res.body?.cancel();
  return res.status;
}

describe("Slack's late retry of a message the bot chose not to answer (bench:chaos seed 3)", () => {
  it("is still not answered when it comes after the bot's answer, which it had not seen", async () => {
    const channel = newSlackChannel("CCF");
    // The answer is drafted from the mention alone, then its first post fails: it goes out on QStash's retry.
    await failSlackPosts({ channel, status: 500, times: 1 });
    expect(
      await deliver(slackMention({ team: TEAM, channel, user: "UALICE", text: "what do you think of plan 8?" })),
    ).toBe(200);
    await kit.deliveriesSettled();
    const chatter = slackMessageEvent({ team: TEAM, channel, user: "UALICE", text: "I think step 1 is fine" });
    expect(await deliver(chatter)).toBe(200);
    await kit.timePasses(FIRST_RETRY_MS);
    expect(await slackPosts(channel)).toHaveLength(1);

    expect(await deliver(chatter, 1)).toBe(200);
    await kit.deliveriesSettled();
    expect(await slackPosts(channel)).toHaveLength(1);
  });
});

describe("a message written right after a mention and delivered only after the bot answered it (bench:chaos seed 4)", () => {
  it("is not taken for a follow-up to that answer", async () => {
    const channel = newSlackChannel("CCF");
    const mention = slackMention({ team: TEAM, channel, user: "UALICE", text: "what do you think of plan 24?" });
    // Written a millisecond after the mention; Slack's first delivery of it failed, its retry comes after the answer.
    const [seconds, micros] = mention.ts.split(".") as [string, string];
    const chatter = slackMessageEvent({
      team: TEAM,
      channel,
      user: "UALICE",
      text: "I think step 1 is fine",
      ts: `${seconds}.${String(Number(micros) + 1000).padStart(6, "0")}`,
    });
    expect(await deliver(mention)).toBe(200);
    await kit.deliveriesSettled();
    expect(await slackPosts(channel)).toHaveLength(1);

    expect(await deliver(chatter, 1)).toBe(200);
    await kit.deliveriesSettled();
    expect(await slackPosts(channel)).toHaveLength(1);
  });
});

describe("a conversation whose only news is a redelivery (bench:chaos seeds 6 and 7)", () => {
  it("keeps its messages as long as its state: an answer owed past the timeout still goes out", async () => {
    const channel = newSlackChannel("CCF");
    const word = `plan${channel}`;
    // The answer's model call fails on QStash's first two attempts: the third comes 160 s later, past the 120 s
    // timeout.
    await scriptModel({ match: word, status: 500, times: 2 });
    expect(
      await deliver(slackMention({ team: TEAM, channel, user: "UALICE", text: `what do you think of ${word}?` })),
    ).toBe(200);
    const chatter = slackMessageEvent({ team: TEAM, channel, user: "UBOB", text: "step 2 looks fine to me" });
    expect(await deliver(chatter)).toBe(200);
    await kit.deliveriesSettled();
    await kit.timePasses(60_000);
    // Slack's late retry of the chatter: the conversation goes on.
    expect(await deliver(chatter, 1)).toBe(200);
    await kit.timePasses(ALL_RETRIES_MS);
    const posts = await slackPosts(channel);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.text).toContain(word);
  });
});

describe("an interaction's answer whose edits all landed but whose responses were lost (bench:chaos seed 4)", () => {
  it("is finished after the last retry, never replaced by an apology", async () => {
    const api = String(discordKit.env.DISCORD_API_BASE_URL);
    const ask = askInteraction(
      { guildId: snowflake(), channelId: snowflake() },
      { id: snowflake(), name: "Alice" },
      "what about plan 30?",
    );
    // Every attempt's edit is carried out and its response lost: Discord shows the answer, the Worker never knows.
    await failDiscordCalls(api, {
      fault: "drop_after",
      path: "/edit_original",
      bodyContains: `"token":"${ask.token}"`,
      times: 4,
    });
    const res = await interactAsDiscord(discordKit.env, discordKeys, ask);
    expect(res.status).toBe(200);
    await discordKit.deliveriesSettled();
    await discordKit.timePasses(ALL_RETRIES_MS);
    const edits = (await discordCalls(api, { token: ask.token }))
      .filter((c) => c.route === "edit_original")
      .map((c) => c.content);
    expect(edits).not.toContain(APOLOGY);
    expect(edits.at(-1)).toContain("plan 30");
  });
});
