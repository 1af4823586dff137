/**
 * @module
 * "Catch me up" in a Slack workspace that did not grant the history scope: the Slack fake refuses
 * `conversations.history` as Slack does, and the bot says that it cannot read the place, naming the missing scope,
 * once, without a model call and without any message of the place.
 */
import { describe, expect, it } from "vitest";
import { catchUpRefusedText } from "../../lib/catch-up/step.ts";
import { modelRequests } from "../support/model.ts";
import { INSTALLABLE, installWorkspace, SLACK_FAKE_ORIGIN } from "../support/slack-install.ts";
import { newSlackPlace, signedSlackRequest, slackMention, slackPosts } from "../support/slack.ts";
import { callWorker, eventually, pumpJobsDuringSuite, settle, suiteEnv } from "../support/worker.ts";

const SUITE = "catchupscope";
const env = suiteEnv(SUITE, INSTALLABLE);

pumpJobsDuringSuite(env, SUITE);

describe("catch me up without the history scope", () => {
  it("says the place cannot be read, naming the scope, and asks the model nothing", async () => {
    const place = newSlackPlace("CUS");
    await installWorkspace(env, {
      id: place.team,
      name: "Scoped",
      scope: "app_mentions:read,chat:write,reactions:write",
    });
    const res = await fetch(`${SLACK_FAKE_ORIGIN}/__messages`, {
      method: "POST",
      body: JSON.stringify({
        team: place.team,
        channel: place.channel,
        user: "UALICE",
        text: `secret plans cus-${place.id}`,
      }),
    });
    expect(res.ok).toBe(true);
    const event = slackMention({ ...place, user: "UCAROL", text: "catch me up" });
    expect((await callWorker(env, await signedSlackRequest(event.body))).status).toBe(200);
    await eventually(async () => (await slackPosts(place.channel)).length > 0, 15_000, "the answer");
    await settle(300);
    expect((await slackPosts(place.channel)).map((p) => p.text)).toEqual([catchUpRefusedText("channels:history")]);
    expect(await modelRequests(`cus-${place.id}`)).toEqual([]);
  });
});
