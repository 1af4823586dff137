/**
 * @module
 * Twilio's rate limit at production timing (test/support/README.md): a 429 (20429, "never processed and always
 * safe to retry") never costs an answer. A short Retry-After is waited out in the job, spending none of QStash's
 * three retries; a longer one goes back to QStash, which comes back after it, and the text goes out then, once.
 */
import { describe, expect, it } from "vitest";
import { RATE_LIMIT_WAIT_IN_JOB_MAX_SECONDS } from "../../lib/platforms/rate-limited.ts";
import { ALL_RETRIES_MS, prodTimingSuite, QSTASH_RETRY_DELAYS_MS } from "../support/prod-timing.ts";
import { BOT_NUMBER, failSmsTo, newSender, signedSmsRequest, smsParams, smsSentTo, TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN } from "../support/twilio.ts";
import { callWorker, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "twiliorate";
const REPLY_PATH = `/t/${SUITE}/jobs/reply`;
/** SMS_BURST_WINDOW_SECONDS's default: a text's job is delivered this long after it. */
const BURST_WINDOW_MS = 4_000;
const kit = prodTimingSuite(SUITE, { TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_PHONE_NUMBER: BOT_NUMBER });

pumpJobsDuringSuite(kit.env, SUITE);

async function text(from: string, body: string): Promise<void> {
  const res = await callWorker(kit.env, await signedSmsRequest(kit.env, smsParams({ from, body })));
  expect(res.status).toBe(200);
  await res.body?.cancel();
}

describe("Twilio answering 429 to an answer's send, at production timing", () => {
  it("with a short Retry-After twice in a row: sent once, at the first delivery, no retry spent", async () => {
    const from = newSender();
    await failSmsTo(from, { status: 429, retryAfter: 1, times: 2 });
    await text(from, "what is a monad?");
    expect((await kit.timePasses(BURST_WINDOW_MS)).deliveries).toMatchObject([{ path: REPLY_PATH, retried: 0, status: 200, outcome: "done" }]);
    expect(await smsSentTo(from)).toHaveLength(1);
    expect((await kit.timePasses(ALL_RETRIES_MS)).deliveries).toEqual([]);
    expect(await smsSentTo(from)).toHaveLength(1);
  });

  it("with a longer Retry-After: back to QStash, which comes back after it, and sent then, once", async () => {
    const from = newSender();
    const retryAfterSeconds = RATE_LIMIT_WAIT_IN_JOB_MAX_SECONDS + 25;
    await failSmsTo(from, { status: 429, retryAfter: retryAfterSeconds });
    await text(from, "what is a functor?");
    expect((await kit.timePasses(BURST_WINDOW_MS)).deliveries).toMatchObject([{ path: REPLY_PATH, retried: 0, status: 503, outcome: "retry" }]);
    expect(await smsSentTo(from)).toHaveLength(0);
    expect((await kit.timePasses(QSTASH_RETRY_DELAYS_MS[0])).deliveries).toEqual([]);
    expect((await kit.timePasses(retryAfterSeconds * 1000)).deliveries).toMatchObject([{ path: REPLY_PATH, retried: 1, status: 200, outcome: "done" }]);
    await kit.timePasses(ALL_RETRIES_MS);
    expect(await smsSentTo(from)).toHaveLength(1);
  });
});
