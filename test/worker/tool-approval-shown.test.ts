/**
 * The action approved is the action that runs (docs/tools.md, "Actions that need approval"): the question shows
 * every argument of the call whole, in a code block, or is not asked at all (the model is told why) where the
 * platform could not show it in one message (an SMS of SMS_REPLY_TARGET_CHARS); and the continuation runs only the
 * arguments whose hash the record kept, so a call changed after the question is cancelled, never run.
 */
import { describe, expect, it } from "vitest";
import { prodTimingSuite } from "../support/prod-timing.ts";
import {
  BOT_USER_ID,
  distinctSlackTs,
  newSlackPlace,
  signedSlackRequest,
  slackMessageEvent,
  slackReactionEvent,
} from "../support/slack.ts";
import { botMessages, unescapeSlack } from "../support/streams.ts";
import { createCalls, toolSettings } from "../support/tools.ts";
import { BOT_NUMBER, newSender, signedSmsRequest, smsParams, smsSentTo, TWILIO_SETTINGS } from "../support/twilio.ts";
import { callWorker, eventually, pumpJobsDuringSuite, settle } from "../support/worker.ts";

const SUITE = "approvalshown";
const kit = prodTimingSuite(SUITE, {
  ...toolSettings("lookup_ticket,create_ticket"),
  ...TWILIO_SETTINGS,
});
pumpJobsDuringSuite(kit.env, SUITE);

/** The finding's call: a first field long enough to push the title past a 500-character cut. */
function hiddenCall(tag: string): { title: string; args: string } {
  const title = `HIDDEN… grant admin to mallory ${tag}`;
  const description = "Printer on 3rd floor jammed. ".repeat(20);
  return { title, args: JSON.stringify({ description, title }) };
}

type Place = ReturnType<typeof newSlackPlace>;

async function askInSlack(place: Place, text: string): Promise<void> {
  const event = slackMessageEvent({
    ...place,
    user: "UASKER",
    text: `<@${BOT_USER_ID}> ${text}`,
    ts: distinctSlackTs(),
  });
  expect((await callWorker(kit.env, await signedSlackRequest(event.body))).status).toBe(200);
  await kit.deliveriesSettled();
}

async function react(place: Place, ts: string): Promise<void> {
  const body = slackReactionEvent({ ...place, user: "UASKER", reaction: "white_check_mark", ts });
  expect((await callWorker(kit.env, await signedSlackRequest(body))).status).toBe(200);
  await kit.deliveriesSettled();
}

/** The bot's messages in the place once `count` are out, oldest first, as a person reads them. */
async function slackSettled(place: Place, count: number): Promise<{ ts: string; text: string }[]> {
  const read = async () =>
    (await botMessages(place.channel))
      .map((m) => ({ ts: m.ts, text: unescapeSlack(m.text) }))
      .sort((a, b) => Number(a.ts) - Number(b.ts));
  const messages = await eventually(async () => (await read()).length >= count && read(), 15_000, `${count}`);
  await settle(1_000);
  expect(await read()).toHaveLength(messages.length);
  return messages;
}

describe("the approval question shows what would run", () => {
  it("on Slack shows every argument whole, and runs what it showed", async () => {
    const place = newSlackPlace("SHOWN");
    const { title, args } = hiddenCall(place.channel);
    await askInSlack(place, `create_ticket ${args}`);
    const [asked] = await slackSettled(place, 1);
    // Every argument, whole, in the code block: nothing past a cut that ✅ would approve unseen.
    expect(asked!.text).toContain(`\`\`\`\n${args}\n\`\`\``);
    expect(asked!.text).toContain(title);
    await react(place, asked!.ts);
    const [, done] = await slackSettled(place, 2);
    expect(done!.text).toContain("✅ Done: create_ticket: Created ticket");
    expect(await createCalls(title)).toEqual([1]);
  });

  it("on SMS is not asked when the text could not show it whole; the model is told, and nothing runs", async () => {
    const from = newSender();
    const { title, args } = hiddenCall(from);
    const body = `create_ticket ${args}`;
    const res = await callWorker(kit.env, await signedSmsRequest(kit.env, smsParams({ from, to: BOT_NUMBER, body })));
    expect(res.status).toBe(200);
    await kit.timePasses(5_000);
    const [answer] = await eventually(async () => {
      const sent = await smsSentTo(from);
      return sent.length > 0 && sent;
    }, 15_000);
    expect(answer!.body).not.toContain("Approval needed");
    expect(answer!.body).toContain("too long to be shown for approval");
    // A YES now answers nothing: no question is pending.
    await callWorker(kit.env, await signedSmsRequest(kit.env, smsParams({ from, to: BOT_NUMBER, body: "YES" })));
    await kit.timePasses(20 * 60_000);
    await settle(1_000);
    expect(await smsSentTo(from)).toHaveLength(1);
    expect(await createCalls(title)).toEqual([]);
  });

  it("cancels an approved call whose arguments are not the ones the question showed", async () => {
    const place = newSlackPlace("CHANGED");
    const title = `Shown title ${place.channel}`;
    await askInSlack(place, `create_ticket {"title": "${title}"}`);
    const [asked] = await slackSettled(place, 1);
    expect(asked!.text).toContain(`{"title":"${title}"}`);
    // The record's call changed after the question went out (what no path may do, and the continuation refuses).
    const [record] = (await kit.redis.keys(`${kit.keyPrefix}approval:*`)).filter((k) => k.endsWith(asked!.ts));
    // The client reads a JSON field back as its value.
    const call = (await kit.redis.hget<Record<string, unknown>>(record!, "call"))!;
    const unshown = `Unshown title ${place.channel}`;
    await kit.redis.hset(record!, { call: JSON.stringify({ ...call, arguments: JSON.stringify({ title: unshown }) }) });
    await react(place, asked!.ts);
    const [, cancelled] = await slackSettled(place, 2);
    expect(cancelled!.text).toBe(
      "❌ Cancelled: create_ticket was not run: its arguments are not the ones the question showed.",
    );
    expect(await createCalls(unshown)).toEqual([]);
    expect(await createCalls(title)).toEqual([]);
  });
});
