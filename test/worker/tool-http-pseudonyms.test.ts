/**
 * What an HTTP tool's endpoint learns of a texter (docs/tools.md, "What a tool endpoint receives"): on SMS the place
 * and the asker are phone numbers, so the body's context and the Idempotency-Key carry keyed pseudonyms instead,
 * the same on QStash's retry (at production timing: the pass after the lookup fails once, the retry 12 s later looks
 * up again), so the endpoint still drops the repeat.
 */
import { describe, expect, it } from "vitest";
import { scriptModel } from "../support/model.ts";
import { prodTimingSuite, QSTASH_RETRY_DELAYS_MS } from "../support/prod-timing.ts";
import { toolServerCalls, toolSettings } from "../support/tools.ts";
import {
  BOT_NUMBER,
  newSender,
  signedSmsRequest,
  smsParams,
  smsSentTo,
  TWILIO_ACCOUNT_SID,
  TWILIO_SETTINGS,
} from "../support/twilio.ts";
import { callWorker, eventually, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "toolpseudonyms";
const kit = prodTimingSuite(SUITE, {
  ...toolSettings("lookup_ticket"),
  ...TWILIO_SETTINGS,
});
pumpJobsDuringSuite(kit.env, SUITE);

const PSEUDONYM = /^p-[0-9a-f]{16}$/;

describe("an HTTP tool called from an SMS conversation", () => {
  it("gets pseudonyms, never a phone number, in the body and the key, the same on a retried delivery", async () => {
    const from = newSender();
    const ticket = `T${Date.now().toString(36)}`;
    await scriptModel({ match: ticket, afterTools: true, status: 500, times: 1 });
    const body = `lookup_ticket {"id": "${ticket}"}`;
    const res = await callWorker(kit.env, await signedSmsRequest(kit.env, smsParams({ from, to: BOT_NUMBER, body })));
    expect(res.status).toBe(200);
    await kit.timePasses(5_000);
    await kit.timePasses(QSTASH_RETRY_DELAYS_MS[0] + 1_000);
    await eventually(async () => (await smsSentTo(from)).length > 0, 15_000, "the answer");
    const received = (await toolServerCalls()).received.filter((r) => r.body.includes(ticket));
    // The first delivery looked up, then its next pass failed; the retry looked up again, under the same key.
    expect(received).toHaveLength(2);
    expect(received[1]!.key).toBe(received[0]!.key);
    const digits = [from, BOT_NUMBER].map((n) => n.replace(/^\+/, ""));
    for (const { key, body: sent } of received) {
      for (const number of digits) {
        expect(key).not.toContain(number);
        expect(sent).not.toContain(number);
      }
      expect(key).toMatch(PSEUDONYM);
      const { context } = JSON.parse(sent) as { context: Record<string, string> };
      expect(context).toEqual({
        platform: "twilio",
        tenant: TWILIO_ACCOUNT_SID,
        place: expect.stringMatching(PSEUDONYM),
        asker: expect.stringMatching(PSEUDONYM),
      });
    }
  });
});
