/**
 * read_channel (docs/tools.md): the model reads more of the answered Slack channel than the prompt holds, through
 * the platform's history API: only that channel (a channel named in its arguments changes nothing), never another
 * channel's or another workspace's messages, nothing of a person who asked to be forgotten, and a workspace that
 * did not grant the history scope gives the model a refusal that names it.
 */
import { describe, expect, it } from "vitest";
import { modelRequests, type ChatRequest } from "../support/model.ts";
import { INSTALLABLE, installWorkspace, SLACK_FAKE_ORIGIN } from "../support/slack-install.ts";
import {
  BOT_USER_ID,
  distinctSlackTs,
  newSlackPlace,
  signedSlackRequest,
  slackMessageEvent,
  slackPosts,
} from "../support/slack.ts";
import { callWorker, eventually, pumpJobsDuringSuite, suiteEnv, type TestEnv } from "../support/worker.ts";

const SUITE = "toolsread";
// The prompt holds the channel's last two messages (backfill): the rest only read_channel can show.
const env = suiteEnv(SUITE, { TOOLS: "read_channel", BACKFILL_MESSAGES: "2" });
const SCOPED_SUITE = "toolsreadscope";
const scopedEnv = suiteEnv(SCOPED_SUITE, { ...INSTALLABLE, TOOLS: "read_channel" });
pumpJobsDuringSuite(env, SUITE);
pumpJobsDuringSuite(scopedEnv, SCOPED_SUITE);

type Place = { team: string; channel: string; id: string };

/** A message Slack has that the bot never saw arrive: in the fake's default workspace unless `team` names another. */
async function inSlack(channel: string, user: string, text: string, team?: string): Promise<void> {
  const res = await fetch(`${SLACK_FAKE_ORIGIN}/__messages`, {
    method: "POST",
    body: JSON.stringify({ channel, user, text, ...(team ? { team } : {}) }),
  });
  expect(res.ok).toBe(true);
}

/** Asks the bot; the model's requests of the answer (its first pass, then the one after the tool round). */
async function ask(to: TestEnv, place: Place, text: string, posts = 1): Promise<ChatRequest[]> {
  const marker = `q-${crypto.randomUUID().slice(0, 8)}`;
  const event = slackMessageEvent({
    ...place,
    user: "UCAROL",
    text: `<@${BOT_USER_ID}> ${text} ${marker}`,
    ts: distinctSlackTs(),
  });
  expect((await callWorker(to, await signedSlackRequest(event.body))).status).toBe(200);
  await eventually(async () => (await slackPosts(place.channel)).length >= posts, 20_000, "the answer");
  return modelRequests(marker);
}

/** What read_channel gave the model: its result, or its error. */
function toolOutcome(request: ChatRequest): { tool: string; result?: string; error?: string } {
  const tool = request.messages.find((m) => m.role === "tool")!;
  return JSON.parse(tool.content.split("\n")[1]!) as { tool: string; result?: string; error?: string };
}

describe("read_channel", () => {
  it("reads older messages of the answered channel only: not another channel's, not another workspace's", async () => {
    const place = newSlackPlace("RC");
    for (const n of [1, 2, 3, 4])
      await inSlack(place.channel, "UALICE", `step ${n} of the rollout older-${n}-${place.id}`);
    await inSlack(`${place.channel}B`, "UALICE", `next door elsewhere-${place.id}`);
    await inSlack(place.channel, "UALICE", `same channel id, other workspace foreign-${place.id}`, `${place.team}X`);
    const [first, second] = await ask(
      env,
      place,
      `read_channel {"messages": 50, "hours": 2, "channel": "${place.channel}B"} what were the first steps?`,
    );
    // The prompt held only the last two; the tool read all four, oldest first.
    expect(JSON.stringify(first!.messages)).not.toContain(`older-1-${place.id}`);
    const { result } = toolOutcome(second!);
    const lines = result!.split("\n");
    expect(lines.map((l) => /older-(\d)-/.exec(l)?.[1])).toEqual(["1", "2", "3", "4"]);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d .* \(UALICE\): step 1 of the rollout/);
    expect(result).not.toContain(`elsewhere-${place.id}`);
    expect(result).not.toContain(`foreign-${place.id}`);
  });

  it("leaves out a person who asked to be forgotten", async () => {
    const place = newSlackPlace("RCF");
    await inSlack(place.channel, "UERIN", `my new address is 4 Elm Street secret-${place.id}`);
    await inSlack(place.channel, "UBOB", `the offsite moves to June offsite-${place.id}`);
    const dm = { team: place.team, channel: `D${place.channel.slice(1)}`, id: place.id };
    const forget = slackMessageEvent({
      ...dm,
      user: "UERIN",
      text: "forget me",
      channelType: "im",
      ts: distinctSlackTs(),
    });
    expect((await callWorker(env, await signedSlackRequest(forget.body))).status).toBe(200);
    await eventually(async () => (await slackPosts(dm.channel)).length >= 1, 20_000, "the forget confirmation");
    const [, second] = await ask(env, place, `read_channel {"messages": 20} what did I miss?`);
    const { result } = toolOutcome(second!);
    expect(result).toContain(`offsite-${place.id}`);
    expect(result).not.toContain(`secret-${place.id}`);
  });

  it("tells the model the history scope is missing when the workspace did not grant it", async () => {
    const place = newSlackPlace("RCS");
    await installWorkspace(scopedEnv, {
      id: place.team,
      name: "Scoped",
      scope: "app_mentions:read,chat:write,reactions:write",
    });
    await inSlack(place.channel, "UALICE", `we ship on friday ship-${place.id}`, place.team);
    const [, second] = await ask(scopedEnv, place, `read_channel {} when do we ship?`);
    expect(toolOutcome(second!)).toEqual({
      tool: "read_channel",
      error: "the platform refused to read this channel's history (the bot lacks channels:history)",
    });
  });
});
