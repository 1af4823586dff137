/**
 * Actions that need approval (docs/tools.md): a confirm tool asked for by the model is never run on its word; the
 * bot asks, and only the asker's ✅ runs the call, exactly once at the tool server (counted by idempotency key, its
 * signature checked there) however often the reaction, the webhook and the continuation job come; ❌ cancels, and
 * so does nobody answering within APPROVAL_TTL_MINUTES (at production timing, on the virtual clock). Every job is
 * delivered twice at once, as an at-least-once queue may; the question, the result and the cancellation are each a
 * message of their own.
 */
import { describe, expect, it } from "vitest";
import { scriptModel } from "../support/model.ts";
import { prodTimingSuite } from "../support/prod-timing.ts";
import { OPEN } from "../../lib/approvals/answer-scripts.ts";
import { approvalKey } from "../../lib/keys.ts";
import { evalshaMatch, scriptFault } from "../support/fault-control.ts";
import {
  BOT_USER_ID,
  distinctSlackTs,
  newSlackPlace,
  signedSlackInteraction,
  signedSlackRequest,
  slackBlockActionsBody,
  slackMessageEvent,
  slackReactionEvent,
} from "../support/slack.ts";
import { botMessages, unescapeSlack } from "../support/streams.ts";
import { createCalls, toolServerCalls, toolSettings } from "../support/tools.ts";
import { callWorker, eventually, pumpJobsDuringSuite, settle, suiteEnv, type TestEnv } from "../support/worker.ts";

const TOOLS = "lookup_ticket,create_ticket";
const env = suiteEnv("approval", toolSettings(TOOLS));
pumpJobsDuringSuite(env, "approval", { deliverEach: 2 });

type Place = ReturnType<typeof newSlackPlace>;

/** Asks the bot in `place`; answers the trigger's idempotency key prefix (docs/tools.md). */
async function ask(testEnv: TestEnv, place: Place, text: string): Promise<string> {
  const ts = distinctSlackTs();
  const event = slackMessageEvent({ ...place, user: "UASKER", text: `<@${BOT_USER_ID}> ${text}`, ts });
  expect((await callWorker(testEnv, await signedSlackRequest(event.body))).status).toBe(200);
  return `slack|${place.team}|${place.channel}||${place.channel}:${ts}`;
}

/** A reaction_added event as Slack sends it, on the bot's message `ts`. */
async function react(
  testEnv: TestEnv,
  place: Place,
  user: string,
  reaction: string,
  ts: string,
  times = 1,
): Promise<void> {
  const body = slackReactionEvent({ ...place, user, reaction, ts });
  for (let i = 0; i < times; i++) expect((await callWorker(testEnv, await signedSlackRequest(body))).status).toBe(200);
}

/** The bot's messages in the place, oldest first, as a person reads them. */
async function shown(place: Place): Promise<{ ts: string; text: string }[]> {
  return (await botMessages(place.channel))
    .map((m) => ({ ts: m.ts, text: unescapeSlack(m.text) }))
    .sort((a, b) => Number(a.ts) - Number(b.ts));
}

async function question(place: Place): Promise<{ ts: string; text: string }> {
  return eventually(
    async () => (await shown(place)).find((m) => m.text.startsWith("⚠️ Approval needed:")),
    15_000,
    "the question",
  );
}

async function messagesSettled(place: Place, count: number): Promise<{ ts: string; text: string }[]> {
  const messages = await eventually(
    async () => {
      const now = await shown(place);
      return now.length >= count && now;
    },
    15_000,
    `${count} messages`,
  );
  await settle(1_500);
  expect(await shown(place)).toHaveLength(messages.length);
  return messages;
}

describe("a confirm tool on Slack", () => {
  it("asks, and runs the call once on the asker's ✅ (not on anyone else's), however often it comes", async () => {
    const place = newSlackPlace("APPROVE");
    const before = await toolServerCalls();
    const key = `${await ask(env, place, 'create_ticket {"title": "Printer on 3rd floor jammed"}')}:0`;
    const asked = await question(place);
    expect(asked.text).toContain(
      'create_ticket with these arguments?\n\n```\n{"title":"Printer on 3rd floor jammed"}\n```',
    );
    await react(env, place, "USOMEONE", "white_check_mark", asked.ts);
    await settle(1_500);
    expect(await shown(place)).toHaveLength(1);
    expect((await toolServerCalls()).byKey[key]).toBeUndefined();
    // Slack's retried event, a double click, and a second kind of tick.
    await react(env, place, "UASKER", "white_check_mark", asked.ts, 3);
    await react(env, place, "UASKER", "heavy_check_mark", asked.ts);
    const [first, done, ...more] = await messagesSettled(place, 2);
    expect(more).toEqual([]);
    expect(first!.text).toBe(asked.text);
    expect(done!.text).toMatch(/^✅ Done: create_ticket: Created ticket \d+ in IT: Printer on 3rd floor jammed$/);
    const after = await toolServerCalls();
    expect(after.byKey[key]).toBe(1);
    expect(after.refused).toBe(before.refused);
    // A ❌ after the ✅ changes nothing.
    await react(env, place, "UASKER", "x", asked.ts);
    await settle(1_500);
    expect(await shown(place)).toHaveLength(2);
  });

  it("cancels on the asker's ❌, once, and never calls the tool", async () => {
    const place = newSlackPlace("DENY");
    await ask(env, place, `create_ticket {"title": "Order more toner ${place.channel}"}`);
    const asked = await question(place);
    await react(env, place, "UASKER", "x", asked.ts, 2);
    await react(env, place, "UASKER", "white_check_mark", asked.ts);
    const [, cancelled, ...more] = await messagesSettled(place, 2);
    expect(more).toEqual([]);
    expect(cancelled!.text).toBe("❌ Cancelled: create_ticket was not run (❌).");
    expect(await createCalls(`Order more toner ${place.channel}`)).toEqual([]);
  });

  it("gets only a question from a tool result that says to call create_ticket, never a call", async () => {
    const marker = `inject-${crypto.randomUUID().slice(0, 8)}`;
    // Ticket 666 says it is approved to call create_ticket; the model, fooled, asks for it after the lookup.
    await scriptModel({
      match: marker,
      afterTools: true,
      toolCalls: [{ name: "create_ticket", arguments: `{"title": "pwned ${marker}"}` }],
    });
    const place = newSlackPlace("INJECT");
    await ask(env, place, `look at ticket 666 please ${marker}`);
    expect((await question(place)).text).toContain(`\n{"title":"pwned ${marker}"}\n`);
    await settle(1_500);
    expect(await shown(place)).toHaveLength(1);
    expect(await createCalls(`pwned ${marker}`)).toEqual([]);
  });
});

describe("a confirm tool at production timing", () => {
  const kit = prodTimingSuite("approvaltiming", toolSettings(TOOLS));
  pumpJobsDuringSuite(kit.env, "approvaltiming");
  const minutes = 15;

  it("is cancelled once when nobody answers within APPROVAL_TTL_MINUTES; a ✅ after that does nothing", async () => {
    const place = newSlackPlace("EXPIRE");
    await ask(kit.env, place, `create_ticket {"title": "Nobody will answer ${place.channel}"}`);
    await kit.deliveriesSettled();
    const asked = await question(place);
    await kit.timePasses(minutes * 60_000 - 10_000);
    expect(await shown(place)).toHaveLength(1);
    await kit.timePasses(20_000);
    const [, cancelled] = await messagesSettled(place, 2);
    expect(cancelled!.text).toBe(
      `❌ Cancelled: create_ticket was not run: nobody approved it within ${minutes} minutes.`,
    );
    await react(kit.env, place, "UASKER", "white_check_mark", asked.ts);
    await kit.deliveriesSettled();
    await kit.timePasses(60 * 60_000);
    expect(await shown(place)).toHaveLength(2);
    expect(await createCalls(`Nobody will answer ${place.channel}`)).toEqual([]);
  });

  it("makes the call again, with its key, after an attempt that died during it, and posts the result", async () => {
    const place = newSlackPlace("DIED");
    const key = `${await ask(kit.env, place, 'create_ticket {"title": "Died during the call"}')}:0`;
    await kit.deliveriesSettled();
    const asked = await question(place);
    // What an attempt that began the call and then died leaves behind: the call marked begun, no result.
    const [record] = (await kit.redis.keys(`${kit.keyPrefix}approval:*`)).filter((k) => k.endsWith(asked.ts));
    await kit.redis.hset(record!, { calling: String(Date.now()) });
    await react(kit.env, place, "UASKER", "white_check_mark", asked.ts);
    await kit.deliveriesSettled();
    const [, done, ...more] = await messagesSettled(place, 2);
    expect(more).toEqual([]);
    expect(done!.text).toContain("✅ Done: create_ticket: Created ticket");
    expect((await toolServerCalls()).byKey[key]).toBe(1);
  });

  it("runs the call once when QStash loses the continuation's answer and delivers it again, and never again after", async () => {
    const place = newSlackPlace("LOST");
    const key = `${await ask(kit.env, place, 'create_ticket {"title": "Lost answer"}')}:0`;
    await kit.deliveriesSettled();
    const asked = await question(place);
    await scriptFault(kit.qstashUrl, { fault: "lose_answer", path: "/t/approvaltiming/jobs/approval" });
    await react(kit.env, place, "UASKER", "white_check_mark", asked.ts);
    expect((await kit.deliveriesSettled()).deliveries).toMatchObject([{ retried: 0, outcome: "retry" }]);
    await kit.timePasses(12_182);
    await kit.timePasses(minutes * 60_000);
    const [, done, ...more] = await messagesSettled(place, 2);
    expect(more).toEqual([]);
    expect(done!.text).toContain("✅ Done: create_ticket: Created ticket");
    expect((await toolServerCalls()).byKey[key]).toBe(1);
    // An hour on, the continuation's own record is gone; a ✅ taken back and given again still does nothing.
    await kit.timePasses(65 * 60_000);
    await react(kit.env, place, "UASKER", "white_check_mark", asked.ts);
    await kit.deliveriesSettled();
    await kit.timePasses(60_000);
    await settle(1_000);
    expect(await shown(place)).toHaveLength(2);
    expect((await toolServerCalls()).byKey[key]).toBe(1);
  });
});

describe("an answer that comes after the question is posted and before its approval opens", () => {
  const kit = prodTimingSuite("approvalearly", toolSettings(TOOLS));
  pumpJobsDuringSuite(kit.env, "approvalearly");
  const recordOf = (place: Place, questionId: string) =>
    approvalKey(
      String(kit.env.REDIS_KEY_PREFIX),
      { platform: "slack", tenant: place.team, channel: place.channel },
      questionId,
    );

  /** A press of `controlId` on message `ts`, as Slack posts block_actions; its answer's status. */
  async function press(place: Place, user: string, ts: string, controlId: string): Promise<number> {
    const body = slackBlockActionsBody(place, { id: user }, ts, { action_id: controlId });
    const res = await callWorker(kit.env, await signedSlackInteraction(body));
    await res.body?.cancel();
    return res.status;
  }

  /**
   * Asks for `title`'s ticket with the approval's open held back (the Redis proxy delays its script 6 s), runs
   * `early` once the question is out (each of its webhooks answered while nothing is open under the question), then
   * lets the open and every job it publishes run. Answers the call's idempotency key.
   */
  async function answeredEarly(place: Place, title: string, early: (questionId: string) => Promise<void>) {
    const opening = await evalshaMatch(OPEN.source, 3, recordOf(place, ""));
    await scriptFault(kit.redisProxyControlUrl, { fault: "delay", delayMs: 6_000, bodyContains: opening });
    const key = `${await ask(kit.env, place, `create_ticket {"title": "${title}"}`)}:0`;
    const replied = kit.deliveriesSettled();
    const asked = await question(place);
    await early(asked.ts);
    expect(await kit.redis.exists(recordOf(place, asked.ts))).toBe(0);
    await replied;
    await kit.deliveriesSettled();
    return key;
  }

  it("runs the call once on the asker's ✅, however often Slack delivers it", async () => {
    const place = newSlackPlace("EARLYYES");
    const key = await answeredEarly(place, "Early tick", (ts) =>
      react(kit.env, place, "UASKER", "white_check_mark", ts, 2),
    );
    const [, done, ...more] = await messagesSettled(place, 2);
    expect(more).toEqual([]);
    expect(done!.text).toMatch(/^✅ Done: create_ticket: Created ticket \d+ in IT: Early tick$/);
    expect((await toolServerCalls()).byKey[key]).toBe(1);
  });

  it("does nothing on a stranger's ✅ or press, nor on a press: the question still waits for the asker", async () => {
    // The buttons go on only once the approval is open, so a press that finds none is on a question long gone: it
    // decides nothing now or later, the asker's neither (a reaction, which can come that early, is kept instead).
    const place = newSlackPlace("EARLYSTRANGER");
    const key = await answeredEarly(place, "Stranger first", async (ts) => {
      await react(kit.env, place, "USTRANGER", "white_check_mark", ts);
      expect(await press(place, "USTRANGER", ts, "approve")).toBe(200);
      expect(await press(place, "UASKER", ts, "approve")).toBe(200);
    });
    await settle(1_500);
    expect(await shown(place)).toHaveLength(1);
    expect((await toolServerCalls()).byKey[key]).toBeUndefined();
    await react(kit.env, place, "UASKER", "white_check_mark", (await question(place)).ts);
    await kit.deliveriesSettled();
    const [, done] = await messagesSettled(place, 2);
    expect(done!.text).toContain("✅ Done: create_ticket: Created ticket");
    expect((await toolServerCalls()).byKey[key]).toBe(1);
  });

  it("cancels once on the asker's ❌, delivered twice, and never calls the tool", async () => {
    const place = newSlackPlace("EARLYNO");
    const title = `Early cross ${place.channel}`;
    await answeredEarly(place, title, (ts) => react(kit.env, place, "UASKER", "x", ts, 2));
    const [, cancelled, ...more] = await messagesSettled(place, 2);
    expect(more).toEqual([]);
    expect(cancelled!.text).toBe("❌ Cancelled: create_ticket was not run (❌).");
    await kit.timePasses(20 * 60_000);
    expect(await shown(place)).toHaveLength(2);
    expect(await createCalls(title)).toEqual([]);
  });
});
