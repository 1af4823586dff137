import { describe, expect, it } from "vitest";
import { modelRequests } from "../support/model.ts";
import { newSender, signedSmsRequest, smsParams, smsSentTo, twilioSuiteEnv } from "../support/twilio.ts";
import { callWorker, eventually, settle, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "twburst";
// The default burst window (4 s): the production setting is what is under test.
// The memory job reads the exchange with a model call of its own; this suite counts answer prompts only.
const env = twilioSuiteEnv(SUITE, { MEMORY_ENABLED: "false" });

pumpJobsDuringSuite(env, SUITE);

async function text(from: string, body: string): Promise<void> {
  const res = await callWorker(env, await signedSmsRequest(env, smsParams({ from, body })));
  expect(res.status).toBe(200);
}

describe("a burst of texts", () => {
  it("gets one answer that saw all three texts sent within 2 s", async () => {
    const from = newSender();
    const markers = [1, 2, 3].map((i) => `burst-${from}-${i}`);
    await text(from, `hi, I need a table for tonight ${markers[0]}`);
    await settle(900);
    await text(from, `for four people ${markers[1]}`);
    await settle(900);
    await text(from, `around 8pm if possible? ${markers[2]}`);

    await eventually(async () => (await smsSentTo(from)).length >= 1, 20_000, "the answer");
    await settle(6_000); // every text's own job has run by now
    expect(await smsSentTo(from)).toHaveLength(1);
    const prompts = await modelRequests(`burst-${from}-`);
    expect(prompts).toHaveLength(1);
    const seen = JSON.stringify(prompts[0]!.messages);
    for (const marker of markers) expect(seen).toContain(marker);
  });
});
