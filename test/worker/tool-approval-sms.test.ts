/**
 * Actions that need approval on SMS and WhatsApp (docs/tools.md): a text has no reactions, so the question asks for
 * a reply, and a text from the asker that is just YES or NO answers it (the place's only other person is the asker).
 * Such a reply is the approval's, never a question for the model; one with nothing pending is a text as before. The
 * call runs once at the tool server however often the YES comes (Twilio's redelivery of the same MessageSid, a
 * second YES); the window closes at production timing, on the virtual clock; a YES counts only right after the
 * question (anything else said since closes it), and from before its send (one whose answer was lost); every job is
 * delivered twice.
 */
import { describe, expect, it } from "vitest";
import { OPEN } from "../../lib/approvals/answer-scripts.ts";
import { evalshaMatch, scriptFault } from "../support/fault-control.ts";
import { scriptModel } from "../support/model.ts";
import { prodTimingSuite, QSTASH_RETRY_DELAYS_MS } from "../support/prod-timing.ts";
import {
  BOT_NUMBER,
  newMessageSid,
  newSender,
  signedSmsRequest,
  smsParams,
  smsSentTo,
  TWILIO_SETTINGS,
} from "../support/twilio.ts";
import { createCalls, toolSettings } from "../support/tools.ts";
import { callWorker, eventually, pumpJobsDuringSuite, settle } from "../support/worker.ts";

const SUITE = "approvalsms";
const MINUTES = 15;
/** SMS's default burst window (4 s) and a little: the answer's job is due then. */
const BURST_MS = 5_000;
const kit = prodTimingSuite(SUITE, {
  ...toolSettings("lookup_ticket,create_ticket"),
  ...TWILIO_SETTINGS,
});
pumpJobsDuringSuite(kit.env, SUITE, { deliverEach: 2 });

/** Texts the bot as Twilio posts it (on WhatsApp, to the bot's WhatsApp address); answers the TwiML. */
async function text(from: string, body: string, sid = newMessageSid()): Promise<string> {
  const to = from.startsWith("whatsapp:") ? `whatsapp:${BOT_NUMBER}` : BOT_NUMBER;
  const res = await callWorker(kit.env, await signedSmsRequest(kit.env, smsParams({ from, to, body, sid })));
  expect(res.status).toBe(200);
  return res.text();
}

/** The bot's texts to `from` once `count` are out and a little time (and every due job) has passed: no more come. */
async function textsSettled(from: string, count: number): Promise<string[]> {
  await kit.timePasses(BURST_MS);
  const sent = await eventually(
    async () => {
      const now = await smsSentTo(from);
      return now.length >= count && now;
    },
    15_000,
    `${count} texts`,
  );
  await kit.timePasses(60_000);
  await settle(1_000);
  expect(await smsSentTo(from)).toHaveLength(sent.length);
  return sent.map((m) => m.body);
}

/** Asks to create a ticket titled `title`; resolves with the question, once it is out. */
async function askToCreate(from: string, title: string): Promise<string> {
  await text(from, `create_ticket {"title": "${title}"}`);
  const [asked, ...more] = await textsSettled(from, 1);
  expect(more).toEqual([]);
  // The arguments whole, on a line of their own (SMS shows the code block as its text, WhatsApp as a block).
  expect(asked).toContain("create_ticket with these arguments?\n\n");
  expect(asked).toContain(`\n{"title":"${title}"}\n`);
  expect(asked).toContain(`Reply YES to approve or NO to cancel, within ${MINUTES} minutes.`);
  return asked!;
}

describe("a confirm tool by text", () => {
  it("runs the call once on the asker's YES, however often it comes, and does not answer the YES", async () => {
    const from = newSender();
    const title = `Approved by text ${from}`;
    await askToCreate(from, title);
    const yes = newMessageSid();
    // Twilio's redelivery of the same text, then a second YES.
    await text(from, "yes", yes);
    await text(from, "yes", yes);
    await text(from, " Yes! ");
    const [, done, ...more] = await textsSettled(from, 2);
    expect(more).toEqual([]);
    expect(done).toMatch(/^✅ Done: create_ticket: Created ticket \d+ in IT: /);
    expect(await createCalls(title)).toEqual([1]);
    // Nothing is pending now: a NO is a text as any other, answered by the model.
    await text(from, "NO");
    const [, , answer, ...after] = await textsSettled(from, 3);
    expect(after).toEqual([]);
    expect(answer).not.toMatch(/^(❌|✅|⚠️)/);
    expect(await createCalls(title)).toEqual([1]);
  });

  it("cancels on the asker's NO, once, and never calls the tool", async () => {
    const from = newSender();
    const title = `Denied by text ${from}`;
    await askToCreate(from, title);
    await text(from, "No.");
    await text(from, "YES");
    const [, cancelled, ...more] = await textsSettled(from, 2);
    expect(more).toEqual([]);
    expect(cancelled).toBe("❌ Cancelled: create_ticket was not run (NO).");
    expect(await createCalls(title)).toEqual([]);
  });

  it("is cancelled once when nobody answers in time; a YES after that is a text as before", async () => {
    const from = newSender();
    const title = `Nobody answers ${from}`;
    await askToCreate(from, title);
    // The question went out a minute ago (askToCreate waits that long).
    await kit.timePasses(MINUTES * 60_000 - 2 * 60_000);
    expect(await smsSentTo(from)).toHaveLength(1);
    await kit.timePasses(2 * 60_000);
    const [, cancelled] = await textsSettled(from, 2);
    expect(cancelled).toBe(`❌ Cancelled: create_ticket was not run: nobody approved it within ${MINUTES} minutes.`);
    // YES is Twilio's opt-in keyword: recorded, answered by Twilio on SMS, never by the model.
    await text(from, "YES");
    await kit.timePasses(60 * 60_000);
    expect(await smsSentTo(from)).toHaveLength(2);
    expect(await createCalls(title)).toEqual([]);
  });

  it("takes a YES only right after the question: once the texter talks on, the question is closed, said once", async () => {
    const from = newSender();
    const title = `wire funds to mallory ${from}`;
    await askToCreate(from, title);
    // The texter ignores the question and keeps talking; the bot answers as usual, and says once that it is closed.
    await text(from, "never mind that, is the printer on the 3rd floor working?");
    const [, ...after] = await textsSettled(from, 3);
    const closed = `❌ Cancelled: the earlier request to run create_ticket was not approved; ask again if you still want it.`;
    expect(after.filter((t) => t === closed)).toHaveLength(1);
    expect(after.filter((t) => t !== closed)[0]).not.toMatch(/^(❌|✅|⚠️)/);
    // A later "yes" (to whatever the bot said last) approves nothing: Twilio's opt-in keyword, recorded, unanswered.
    await text(from, "yes");
    await kit.timePasses(MINUTES * 60_000);
    await settle(1_000);
    expect(await smsSentTo(from)).toHaveLength(3);
    expect(await createCalls(title)).toEqual([]);
  });

  it("takes no YES after a later message of the bot's: an answer posted after the question closes it", async () => {
    const from = newSender();
    const title = `slow question ${from}`;
    // The question's model call takes 3 s: the texter's next text comes in before the question is out.
    await scriptModel({
      match: title,
      afterTools: false,
      delayMs: 3_000,
      times: 1,
      toolCalls: [{ name: "create_ticket", arguments: JSON.stringify({ title }) }],
    });
    await text(from, `please file this: ${title}`);
    const asking = kit.timePasses(BURST_MS);
    await settle(1_000);
    await text(from, "and how do I reset my password?");
    await asking;
    // That text's answer is the bot's message after the question: the question is closed, said once.
    const sent = await textsSettled(from, 3);
    expect(sent[0]).toContain("⚠️ Approval needed: may I run create_ticket");
    expect(sent.filter((t) => t.startsWith("❌ Cancelled: the earlier request to run create_ticket"))).toHaveLength(1);
    await text(from, "yes");
    await kit.timePasses(MINUTES * 60_000);
    await settle(1_000);
    expect(await smsSentTo(from)).toHaveLength(3);
    expect(await createCalls(title)).toEqual([]);
  });

  it("runs the call once on a YES that comes before the approval opens, and does not answer the YES", async () => {
    const from = newSender();
    const title = `Early yes ${from}`;
    // The approval's open is held back 6 s at the Redis proxy, after the question is out.
    const opening = await evalshaMatch(OPEN.source, 4, `${kit.keyPrefix}approval:`);
    await scriptFault(kit.redisProxyControlUrl, { fault: "delay", delayMs: 6_000, bodyContains: opening });
    await text(from, `create_ticket {"title": "${title}"}`);
    const asking = kit.timePasses(BURST_MS);
    await eventually(async () => (await smsSentTo(from)).length > 0, 15_000, "the question");
    const yes = newMessageSid();
    await text(from, "YES", yes);
    await text(from, "YES", yes);
    expect(await kit.redis.keys(`${kit.keyPrefix}approval:*${from}*`)).toEqual([]);
    await asking;
    const [, done, ...more] = await textsSettled(from, 2);
    expect(more).toEqual([]);
    expect(done).toMatch(/^✅ Done: create_ticket: Created ticket \d+ in IT: /);
    expect(await createCalls(title)).toEqual([1]);
  });

  // bench:chaos seed 3: Twilio carried the question's send out and its answer was lost. Before, the YES that came
  // before the retry found the question was a text for the model, which asked the same question again.
  it("runs the call once on a YES to a question whose send was never heard back, asking it once", async () => {
    const from = newSender();
    const title = `Unsure question ${from}`;
    const twilio = String(kit.env.TWILIO_API_BASE_URL);
    await scriptFault(twilio, { fault: "drop_after", path: "/messages.create", bodyContains: `"to":"${from}"` });
    await text(from, `create_ticket {"title": "${title}"}`);
    await kit.timePasses(BURST_MS);
    const [question, ...none] = (await smsSentTo(from)).map((m) => m.body);
    expect(none).toEqual([]);
    expect(question).toContain("⚠️ Approval needed: may I run create_ticket");
    // The person answers the question they have while the job waits for its first retry (QStash's 12 s).
    await text(from, "YES");
    await kit.timePasses(QSTASH_RETRY_DELAYS_MS[0]);
    const [asked, done, ...more] = await textsSettled(from, 2);
    expect(asked).toBe(question);
    expect(done).toMatch(/^✅ Done: create_ticket: Created ticket \d+ in IT: /);
    expect(more).toEqual([]);
    expect(await createCalls(title)).toEqual([1]);
  });

  it("answers a NO with nothing pending as any text", async () => {
    const from = newSender();
    await text(from, "no");
    const [answer, ...more] = await textsSettled(from, 1);
    expect(more).toEqual([]);
    expect(answer).not.toMatch(/^(❌|✅|⚠️)/);
  });

  it("on WhatsApp, takes the YES for the approval, without the opt-in welcome", async () => {
    const from = `whatsapp:${newSender()}`;
    const title = `Approved on WhatsApp ${from}`;
    await askToCreate(from, title);
    expect(await text(from, "YES")).not.toContain("<Message>");
    const [, done] = await textsSettled(from, 2);
    expect(done).toMatch(/^✅ Done: create_ticket: Created ticket \d+ in IT: /);
    expect(await createCalls(title)).toEqual([1]);
    // With nothing pending, a YES is WhatsApp's opt-in as before.
    expect(await text(from, "YES")).toContain("Welcome back!");
  });
});
