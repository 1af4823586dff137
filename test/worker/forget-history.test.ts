/**
 * "Forget me" covers every later read of a place's history, however long after (docs/data-kept.md): the record of
 * when the person asked outlives the furthest read. On the production clock, a day and more after the request (the
 * old mark's whole life), what they wrote before it is left out of backfill, of `read_channel {"hours": 168}` and
 * of a catch-up, while what others wrote is read.
 */
import { describe, expect, it } from "vitest";
import { FORGET_CONFIRMATION } from "../../lib/notices.ts";
import { modelRequests } from "../support/model.ts";
import { prodTimingSuite } from "../support/prod-timing.ts";
import { SLACK_FAKE_ORIGIN } from "../support/slack-install.ts";
import {
  BOT_USER_ID,
  distinctSlackTs,
  newSlackChannel,
  newSlackPlace,
  signedSlackRequest,
  slackMessageEvent,
  slackPosts,
} from "../support/slack.ts";
import { callWorker, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "forgethistory";
const kit = prodTimingSuite(SUITE, { TOOLS: "read_channel", BACKFILL_MESSAGES: "30" });
pumpJobsDuringSuite(kit.env, SUITE);
const DAY_MS = 86_400_000;

type Place = { team: string; channel: string };

/** A message Slack has that the bot never saw arrive (the fake stamps it now, on the wall clock). */
async function inSlack(channel: string, user: string, text: string): Promise<void> {
  const res = await fetch(`${SLACK_FAKE_ORIGIN}/__messages`, {
    method: "POST",
    body: JSON.stringify({ channel, user, text }),
  });
  expect(res.ok).toBe(true);
}

/** `user` says `text` in `place` (to the bot unless a DM), and every job it starts runs. */
async function say(place: Place, user: string, text: string, dm = false): Promise<void> {
  const event = slackMessageEvent({
    ...place,
    user,
    text: dm ? text : `<@${BOT_USER_ID}> ${text}`,
    ts: distinctSlackTs(),
    ...(dm ? { channelType: "im" } : {}),
  });
  expect((await callWorker(kit.env, await signedSlackRequest(event.body))).status).toBe(200);
  for (let round = 0; round < 8 && (await kit.deliveriesSettled()).deliveries.length > 0; round++);
}

describe("forget me and the place's history", () => {
  it("leaves out what the person wrote before asking, a day and more later, from every history read", async () => {
    const place = newSlackPlace("FH");
    const catchUp = { team: place.team, channel: newSlackChannel("CFHC") };
    const secret = `secret-${place.channel}`;
    for (const channel of [place.channel, catchUp.channel]) {
      await inSlack(channel, "UERIN", `my home address is 4 Elm Street ${secret}`);
      await inSlack(channel, "UBOB", `the offsite moves to June offsite-${channel}`);
    }
    const dm = { team: place.team, channel: `D${place.channel.slice(1)}` };
    await say(dm, "UERIN", "forget me", true);
    expect((await slackPosts(dm.channel)).map((p) => p.text)).toEqual([FORGET_CONFIRMATION]);

    // A day and a minute: the old mark's TTL (86,400 s) has run out.
    await kit.timePasses(DAY_MS + 60_000);

    const marker = `rc-${place.channel}`;
    await say(place, "UCAROL", `read_channel {"messages": 50, "hours": 168} what did Erin say? ${marker}`);
    const [first, second] = await modelRequests(marker);
    // The conversation's first answer read the place (backfill), then the tool read a week of it.
    expect(JSON.stringify(first!.messages)).toContain(`offsite-${place.channel}`);
    const tool = second!.messages.find((m) => m.role === "tool")!;
    expect(tool.content).toContain(`offsite-${place.channel}`);
    expect(JSON.stringify([first, second])).not.toContain("4 Elm Street");

    await say(catchUp, "UCAROL", "catch me up");
    const read = await modelRequests(`offsite-${catchUp.channel}`);
    expect(read.length).toBeGreaterThan(0);
    expect(JSON.stringify(read)).not.toContain("4 Elm Street");
  });
});
