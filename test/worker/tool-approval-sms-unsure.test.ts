/**
 * A text's approval question whose send Twilio carried out but never answered (bench:chaos seed 3): the person has
 * the question and replies YES before the job's retry has found it and opened its approval. That YES is the
 * approval's, kept until the retry opens it; before, it was a text for the model, which asked the same question a
 * second time, and the first question's approval (taken over by the second) expired unanswered.
 */
import { describe, expect, it } from "vitest";
import { scriptFault } from "../support/fault-control.ts";
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
import { callWorker, pumpJobsDuringSuite, settle } from "../support/worker.ts";

const SUITE = "approvalsmsunsure";
const REPLY_PATH = `/t/${SUITE}/jobs/reply`;
/** SMS's default burst window (4 s) and a little: the answer's job is due then. */
const BURST_MS = 5_000;
const kit = prodTimingSuite(SUITE, { ...toolSettings("create_ticket"), ...TWILIO_SETTINGS });
pumpJobsDuringSuite(kit.env, SUITE);

async function text(from: string, body: string): Promise<void> {
  const params = smsParams({ from, to: BOT_NUMBER, body, sid: newMessageSid() });
  expect((await callWorker(kit.env, await signedSmsRequest(kit.env, params))).status).toBe(200);
}

describe("a YES to a question whose send was never heard back", () => {
  it("approves that question once its retry finds it: no second question, the call runs once", async () => {
    const from = newSender();
    const title = `Unsure question ${from}`;
    const twilio = String(kit.env.TWILIO_API_BASE_URL);
    await scriptFault(twilio, { fault: "drop_after", path: "/messages.create", bodyContains: `"to":"${from}"` });
    await text(from, `create_ticket {"title": "${title}"}`);
    expect((await kit.timePasses(BURST_MS)).deliveries).toMatchObject([{ path: REPLY_PATH, retried: 0, status: 500 }]);
    const [question, ...none] = (await smsSentTo(from)).map((m) => m.body);
    expect(none).toEqual([]);
    expect(question).toContain("⚠️ Approval needed: may I run create_ticket");

    // The person answers the question they have, while the job waits for its first retry.
    await text(from, "YES");
    await kit.timePasses(QSTASH_RETRY_DELAYS_MS[0]);
    await kit.timePasses(60_000);
    await settle(1_000);
    const [asked, done, ...more] = (await smsSentTo(from)).map((m) => m.body);
    expect(asked).toBe(question);
    expect(done).toMatch(/^✅ Done: create_ticket: Created ticket \d+ in IT: /);
    expect(more).toEqual([]);
    expect(await createCalls(title)).toEqual([1]);
  });
});
