/**
 * Several bot numbers in one Twilio account: each number is its own set of conversations, and answers come from the
 * number the person texted.
 */
import { describe, expect, it } from "vitest";
import { replyPrompt } from "../support/memory.ts";
import { BOT_NUMBER, newSender, signedSmsRequest, smsParams, smsSentTo, twilioSuiteEnv } from "../support/twilio.ts";
import { callWorker, eventually, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "twnumbers";
const SECOND_NUMBER = "+15005550007";
const env = twilioSuiteEnv(SUITE, { SMS_BURST_WINDOW_SECONDS: "0" });

pumpJobsDuringSuite(env, SUITE);

describe("two bot numbers of one account", () => {
  it("keep a person's conversations apart, each answered from the number it was sent to", async () => {
    const person = newSender();
    const marker = person.slice(-7);
    for (const [to, body] of [[BOT_NUMBER, `my cat is called Tom. first-${marker}`], [SECOND_NUMBER, `what is my cat called? second-${marker}`]] as const) {
      const res = await callWorker(env, await signedSmsRequest(env, smsParams({ from: person, body, to })));
      expect(res.status).toBe(200);
      await eventually(async () => (await smsSentTo(person)).filter((s) => s.from === to).length === 1, 15_000, `the answer from ${to}`);
    }
    expect((await smsSentTo(person)).map((s) => s.from).sort()).toEqual([BOT_NUMBER, SECOND_NUMBER].sort());
    expect(JSON.stringify((await replyPrompt(`second-${marker}`)).messages)).not.toContain(`first-${marker}`);
  });
});
