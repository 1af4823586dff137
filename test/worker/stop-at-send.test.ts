/**
 * "STOP" holds at every send, not only before the model call: an answer whose text was written (and saved) before the
 * person opted out is not sent by QStash's retry, nor by the failure callback after the last retry. Production
 * timings (QStash's retries 12 s, 148 s, 1808 s) on a virtual clock.
 */
import { describe, expect, it } from "vitest";
import { scriptFault } from "../support/fault-control.ts";
import { ALL_RETRIES_MS, prodTimingSuite } from "../support/prod-timing.ts";
import { newSender, signedSmsRequest, smsParams, smsSentTo, TWILIO_SETTINGS } from "../support/twilio.ts";
import { callWorker, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "stopatsend";
// No burst wait: the answer's job runs at once, so that its send fails before STOP arrives.
const kit = prodTimingSuite(SUITE, {
  ...TWILIO_SETTINGS,
  SMS_BURST_WINDOW_SECONDS: "0",
});
pumpJobsDuringSuite(kit.env, SUITE);

const text = async (from: string, body: string) =>
  expect((await callWorker(kit.env, await signedSmsRequest(kit.env, smsParams({ from, body })))).status).toBe(200);

describe("an answer written before STOP", () => {
  it("is never sent: not by QStash's retry, not by the failure callback after the last retry", async () => {
    const from = newSender();
    const twilio = String(kit.env.TWILIO_API_BASE_URL);
    // The answer's text is written and kept in its draft, then Twilio fails its send: QStash will retry the job.
    await scriptFault(twilio, {
      fault: "refuse",
      path: "/messages.create",
      bodyContains: `"to":"${from}"`,
      status: 500,
    });
    await text(from, "when does the pharmacy open on Sunday?");
    const first = await kit.deliveriesSettled();
    expect(first.deliveries.some((d) => (d.status ?? 0) >= 500)).toBe(true);
    expect(await smsSentTo(from)).toEqual([]);
    await text(from, "STOP");
    await kit.timePasses(ALL_RETRIES_MS);
    expect(await smsSentTo(from)).toEqual([]);
  });
});
