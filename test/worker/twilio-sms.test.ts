import { Redis } from "@upstash/redis/cloudflare";
import { describe, expect, it, vi } from "vitest";
import { modelRequests, scriptModel } from "../support/model.ts";
import {
  failSmsTo,
  newMessageSid,
  newSender,
  signedSmsRequest,
  smsParams,
  smsSentTo,
  TWILIO_ACCOUNT_SID,
  BOT_NUMBER,
  twilioSuiteEnv,
} from "../support/twilio.ts";
import { callWorker, eventually, settle, pumpJobsDuringSuite } from "../support/worker.ts";
import { twilioMedia } from "../support/files.ts";

const SUITE = "twsms";
const env = twilioSuiteEnv(SUITE, { SMS_BURST_WINDOW_SECONDS: "1" });
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
/** Long enough for a job that should not send to have run: the burst delay plus a model call. */
const QUIET_MS = 2_500;

pumpJobsDuringSuite(env, SUITE);

async function text(from: string, body: string, extra: { sid?: string; numMedia?: number } = {}): Promise<Response> {
  const res = await callWorker(env, await signedSmsRequest(env, smsParams({ from, body, ...extra })));
  expect(res.status).toBe(200);
  expect(res.headers.get("Content-Type")).toMatch(/^text\/xml/);
  return res;
}

const sentCount = (to: string, n: number) => async () => (await smsSentTo(to)).length === n;
const optOutKey = (number: string) => `t-${SUITE}:optout:twilio|${TWILIO_ACCOUNT_SID}|${number}`;
const conversationLog = (number: string) =>
  redis.zrange<unknown[]>(`t-${SUITE}:conv:twilio|${TWILIO_ACCOUNT_SID}|${BOT_NUMBER}|${number}|:log`, 0, -1);

/** The Worker's JSON log lines about one message (`"message":"<sid>"`), by event name. */
function linesAbout(logs: { mock: { calls: unknown[][] } }, sid: string, event: string): Record<string, unknown>[] {
  return logs.mock.calls
    .map((c) => String(c[0]))
    .filter((line) => line.includes(`"message":"${sid}"`) && line.includes(`"event":"${event}"`))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("a conversation over SMS", () => {
  it("answers a text from the bot's number, and tells the model it is SMS and how long to be", async () => {
    const from = newSender();
    const marker = `first-${from}`;
    await text(from, `what is a good name for a cat? ${marker}`);
    await eventually(sentCount(from, 1), 15_000, "the answer");
    const [sent] = await smsSentTo(from);
    expect(sent).toMatchObject({ accountSid: TWILIO_ACCOUNT_SID, to: from, from: BOT_NUMBER });
    expect(sent!.body.length).toBeGreaterThan(0);
    const [prompt] = await modelRequests(marker);
    const system = prompt!.messages.find((m) => m.role === "system")!.content;
    expect(system).toContain("SMS");
    expect(system).toContain("320 characters");
  });

  it("remembers the exchange for the next text", async () => {
    const from = newSender();
    await text(from, `my dog is called Rex. marker-${from}-1`);
    await eventually(sentCount(from, 1), 15_000, "first answer");
    await text(from, `what is my dog called? marker-${from}-2`);
    await eventually(sentCount(from, 2), 15_000, "second answer");
    const [prompt] = await modelRequests(`marker-${from}-2`);
    expect(JSON.stringify(prompt!.messages)).toContain(`marker-${from}-1`);
  });

  it("cuts a long answer at a sentence end within the target length", async () => {
    const from = newSender();
    const marker = `long-${from}`;
    await scriptModel({ match: marker, reply: "This is one complete sentence about cats. ".repeat(30).trim() });
    await text(from, `tell me everything about cats ${marker}`);
    await eventually(sentCount(from, 1), 15_000, "the answer");
    const [sent] = await smsSentTo(from);
    expect(sent!.body.length).toBeLessThanOrEqual(320);
    expect(sent!.body).toMatch(/about cats\.$/);
  });

  it("answers the same MessageSid delivered twice, at once or later, only once", async () => {
    const from = newSender();
    const sid = newMessageSid();
    await Promise.all([text(from, "is the shop open today?", { sid }), text(from, "is the shop open today?", { sid })]);
    await text(from, "is the shop open today?", { sid });
    await eventually(sentCount(from, 1), 15_000, "the answer");
    await settle(QUIET_MS);
    expect(await smsSentTo(from)).toHaveLength(1);
  });

  it("never answers STOP, stays silent until START, then answers again", async () => {
    const from = newSender();
    await text(from, "STOP");
    expect(await redis.exists(optOutKey(from))).toBe(1);
    await text(from, `are you still there? quiet-${from}`);
    await settle(QUIET_MS);
    expect(await smsSentTo(from)).toEqual([]);

    await text(from, "start");
    expect(await redis.exists(optOutKey(from))).toBe(0);
    await text(from, `back again, hello? loud-${from}`);
    await eventually(sentCount(from, 1), 15_000, "the answer after START");
    await settle(QUIET_MS);
    expect(await smsSentTo(from)).toHaveLength(1);
  });

  it("records STOP as an opted_out decision, and records a later text without publishing a job for it", async () => {
    const logs = vi.spyOn(console, "log");
    try {
      const from = newSender();
      const [stop, later] = [newMessageSid(), newMessageSid()];
      await text(from, "Stop", { sid: stop });
      await text(from, `can you still hear me? muted-${from}`, { sid: later });
      for (const sid of [stop, later]) {
        expect(linesAbout(logs, sid, "decision")).toEqual([
          expect.objectContaining({ respond: "no", reason: "opted_out" }),
        ]);
        expect(linesAbout(logs, sid, "job_published")).toEqual([]);
      }
      expect(JSON.stringify(await conversationLog(from))).toContain(`muted-${from}`);
      await settle(QUIET_MS);
      expect(await modelRequests(`muted-${from}`)).toEqual([]);
    } finally {
      logs.mockRestore();
    }
  });

  it("answers HELP with nothing of its own (Twilio answers it)", async () => {
    const from = newSender();
    await text(from, "HELP");
    await settle(QUIET_MS);
    expect(await smsSentTo(from)).toEqual([]);
  });

  it("answers a picture without words (MMS) from the picture, once however often Twilio delivers it", async () => {
    const from = newSender();
    const sid = newMessageSid();
    const media = [
      await twilioMedia({ name: "meal.png", png: { width: 120, height: 90, colour: "#fa8c14" }, message: sid }),
    ];
    const res = await callWorker(env, await signedSmsRequest(env, smsParams({ from, body: "", sid, media })));
    expect(await res.text()).toMatch(/<Response><\/Response>$/);
    await callWorker(env, await signedSmsRequest(env, smsParams({ from, body: "", sid, media })));
    await eventually(sentCount(from, 1), 15_000, "the answer");
    await settle(QUIET_MS);
    const sent = await smsSentTo(from);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toContain("PNG picture, 120×90, mostly orange");
  });

  it("marks the number opted out when Twilio answers 21610, and does not retry the job", async () => {
    const from = newSender();
    const marker = `optedout-${from}`;
    await failSmsTo(from, { error: "21610" });
    await text(from, `hello? ${marker}`);
    await eventually(async () => (await redis.exists(optOutKey(from))) === 1, 15_000, "the opt-out mark");
    await settle(QUIET_MS);
    expect(await modelRequests(marker)).toHaveLength(1);
    expect(await smsSentTo(from)).toEqual([]);
    // The fake would accept the next message: only the bot's own opt-out record keeps it from being sent.
    await text(from, `anyone? later-${from}`);
    await settle(QUIET_MS);
    expect(await smsSentTo(from)).toEqual([]);
  });

  it("waits and sends once when Twilio rate-limits the answer", async () => {
    const from = newSender();
    await failSmsTo(from, { status: 429, retryAfter: 1 });
    await text(from, "what's the weather like?");
    await eventually(sentCount(from, 1), 20_000, "the answer after the rate limit");
    await settle(QUIET_MS);
    expect(await smsSentTo(from)).toHaveLength(1);
  });
});
