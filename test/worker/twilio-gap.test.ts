import { describe, expect, it } from "vitest";
import { modelRequests } from "../support/model.ts";
import { newSender, signedSmsRequest, smsParams, smsSentTo, twilioSuiteEnv } from "../support/twilio.ts";
import { callWorker, eventually, settle, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "twgap";
/** A 6-second gap stands for the 30-minute one: the same TTL mechanism, in test time. */
const GAP_SECONDS = 6;
const env = twilioSuiteEnv(SUITE, {
  SMS_CONVERSATION_GAP_MINUTES: String(GAP_SECONDS / 60),
  SMS_BURST_WINDOW_SECONDS: "0",
  // Facts about the person outlive a conversation by design; this suite checks that the exchange itself does not.
  MEMORY_ENABLED: "false",
});

pumpJobsDuringSuite(env, SUITE);

async function exchange(from: string, body: string, answersSoFar: number): Promise<string> {
  const res = await callWorker(env, await signedSmsRequest(env, smsParams({ from, body })));
  expect(res.status).toBe(200);
  const sent = await eventually(
    async () => {
      const all = await smsSentTo(from);
      return all.length === answersSoFar + 1 && all;
    },
    15_000,
    "the answer",
  );
  return sent[answersSoFar]!.body;
}

async function promptFor(marker: string): Promise<string> {
  const [prompt] = await modelRequests(marker);
  return JSON.stringify(prompt!.messages);
}

describe("the SMS conversation gap", () => {
  it("continues the conversation for a text within the gap", async () => {
    const from = newSender();
    const firstAnswer = await exchange(from, `my name is Ana marker-${from}-1`, 0);
    await settle((GAP_SECONDS / 2) * 1_000);
    await exchange(from, `what is my name? marker-${from}-2`, 1);
    const seen = await promptFor(`marker-${from}-2`);
    expect(seen).toContain(`marker-${from}-1`);
    expect(seen).toContain(firstAnswer.slice(0, 20));
  });

  it("starts a new conversation for a text after the gap, without the old exchange in the prompt", async () => {
    const from = newSender();
    const firstAnswer = await exchange(from, `my name is Bo marker-${from}-1`, 0);
    await settle((GAP_SECONDS + 1.5) * 1_000);
    await exchange(from, `what is my name? marker-${from}-2`, 1);
    const seen = await promptFor(`marker-${from}-2`);
    expect(seen).not.toContain(`marker-${from}-1`);
    expect(seen).not.toContain(firstAnswer.slice(0, 20));
  });
});
