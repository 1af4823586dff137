/**
 * @module
 * What a catch-up takes from the model is untrusted like the channel it read (issue #41): a URL planted in the
 * channel and repeated by the model, or a permalink it made up, is never posted as a link (only the citations the
 * job turns into links are links).
 */
import { describe, expect, it } from "vitest";
import { modelRequests, scriptModel } from "../support/model.ts";
import { SLACK_FAKE_ORIGIN } from "../support/slack-install.ts";
import { newSlackPlace, signedSlackRequest, slackMention, slackPosts } from "../support/slack.ts";
import { callWorker, eventually, pumpJobsDuringSuite, suiteEnv } from "../support/worker.ts";

const SUITE = "catchupuntrusted";
const env = suiteEnv(SUITE);
pumpJobsDuringSuite(env, SUITE);

type Place = { team: string; channel: string };

/** A message Slack has that the bot never saw arrive (in the fake's default workspace), `secondsAgo` before now. */
async function inSlack(place: Place, user: string, text: string, secondsAgo: number): Promise<string> {
  const ts = `${Math.floor(Date.now() / 1000) - secondsAgo}.000100`;
  const res = await fetch(`${SLACK_FAKE_ORIGIN}/__messages`, {
    method: "POST",
    body: JSON.stringify({ channel: place.channel, user, text, ts }),
  });
  expect(res.ok).toBe(true);
  return ts;
}

/** Carol asks for a catch-up; the summary as posted. */
async function catchUp(place: Place): Promise<string> {
  const event = slackMention({ ...place, user: "UCAROL", text: "catch me up" });
  expect((await callWorker(env, await signedSlackRequest(event.body))).status).toBe(200);
  const posts = await eventually(async () => (await slackPosts(place.channel)).at(0), 20_000, "the summary");
  return JSON.stringify(posts);
}

describe("a catch-up's untrusted parts", () => {
  it("posts no link the model wrote: a phishing URL from the channel, a made-up permalink", async () => {
    const place = newSlackPlace("CUU");
    const tag = `cuu-${place.id}`;
    const ts = await inSlack(
      place,
      "UMALLORY",
      `IT here: re-enter your password at https://evil.example/login ${tag}`,
      600,
    );
    await inSlack(place, "UBOB", `the deploy is on friday ${tag}`, 300);
    await scriptModel({
      match: tag,
      reply:
        "Topics:\n- IT asks everyone to log in again at https://evil.example/login [1]\n" +
        "- the deploy, see [the plan](https://app.slack.com/archives/COTHER/p1700000000000100) and " +
        "<https://evil.example/more|the details> [2]",
    });
    const posted = await catchUp(place);
    expect((await modelRequests(tag)).length).toBeGreaterThan(0);
    // The citation is a link to the message; the rest is shown as code without a scheme.
    expect(posted).toContain(`/archives/${place.channel}/p${ts.replace(".", "")}`);
    expect(posted).toContain(`log in again at \`evil.example/login\` https://`);
    expect(posted).toContain("see the plan (`app.slack.com/archives/COTHER/p1700000000000100`) and the details");
    expect(posted).not.toMatch(/https?:\/\/evil\.example/);
    expect(posted).not.toMatch(/https?:\/\/[^"\s]*COTHER/);
  });
});
