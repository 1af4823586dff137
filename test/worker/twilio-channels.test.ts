import { describe, expect, it, vi } from "vitest";
import { modelRequests, scriptModel } from "../support/model.ts";
import {
  BOT_NUMBER,
  newMessageSid,
  newSender,
  signedSmsRequest,
  smsParams,
  smsSentTo,
  TWILIO_ACCOUNT_SID,
  twilioSuiteEnv,
} from "../support/twilio.ts";
import { callWorker, eventually, pumpJobsDuringSuite, settle } from "../support/worker.ts";
import { twilioMedia } from "../support/files.ts";

const SUITE = "twchannels";
const SECOND_NUMBER = "+15005550007";
/** A number of the account that the bot does not own (its webhook points here by mistake). */
const OTHER_NUMBER = "+15005550099";
const SERVICE = "MG0123456789abcdef0123456789abcdef";
/** A sender in the Messaging Service's pool that is not listed among the bot's numbers. */
const SERVICE_NUMBER = "+15005550010";
// No TWILIO_PHONE_NUMBER: the list and the service alone switch Twilio on.
const env = twilioSuiteEnv(SUITE, {
  SMS_BURST_WINDOW_SECONDS: "1",
  TWILIO_PHONE_NUMBER: "",
  TWILIO_PHONE_NUMBERS: `${BOT_NUMBER}, ${SECOND_NUMBER}`,
  TWILIO_MESSAGING_SERVICE_SID: SERVICE,
});
/** Long enough for a job that should not send to have run: the burst delay plus a model call. */
const QUIET_MS = 2_500;
const whatsapp = (number: string) => `whatsapp:${number}`;

pumpJobsDuringSuite(env, SUITE);

async function send(args: Parameters<typeof smsParams>[0]): Promise<string> {
  const res = await callWorker(env, await signedSmsRequest(env, smsParams(args)));
  expect(res.status).toBe(200);
  return res.text();
}
const sentCount = (to: string, n: number) => async () => (await smsSentTo(to)).length === n;
const systemPrompt = async (marker: string) =>
  (await modelRequests(marker)).find((r) => r.messages.some((m) => m.content.includes(marker)))!.messages[0]!.content;

describe("several bot numbers and a Messaging Service on one account", () => {
  it("keeps a conversation per bot number, and answers each text from the number it was sent to", async () => {
    const from = newSender();
    await send({ from, to: BOT_NUMBER, body: `my cat is called Tom. a1-${from}` });
    await eventually(sentCount(from, 1), 15_000, "the first number's answer");
    await send({ from, to: SECOND_NUMBER, body: `my dog is called Rex. b1-${from}` });
    await eventually(sentCount(from, 2), 15_000, "the second number's answer");
    await send({ from, to: SECOND_NUMBER, body: `what is my pet called? b2-${from}` });
    await eventually(sentCount(from, 3), 15_000, "the follow-up's answer");
    expect((await smsSentTo(from)).map((s) => s.from)).toEqual([BOT_NUMBER, SECOND_NUMBER, SECOND_NUMBER]);
    const [prompt] = await modelRequests(`b2-${from}`);
    const seen = JSON.stringify(prompt!.messages);
    expect(seen).toContain(`b1-${from}`);
    expect(seen).not.toContain(`a1-${from}`);
  });

  it("answers a text that came through the Messaging Service through it, from the pool number written to", async () => {
    const from = newSender();
    await send({ from, to: SERVICE_NUMBER, messagingServiceSid: SERVICE, body: `hello service s1-${from}` });
    await eventually(sentCount(from, 1), 15_000, "the answer");
    expect((await smsSentTo(from))[0]).toMatchObject({
      accountSid: TWILIO_ACCOUNT_SID,
      from: SERVICE_NUMBER,
      messagingServiceSid: SERVICE,
    });
  });

  it("does not answer a text to a number of the account that is not the bot's", async () => {
    const logs = vi.spyOn(console, "log");
    const from = newSender();
    try {
      await send({ from, to: OTHER_NUMBER, body: `anyone there? o1-${from}` });
      await settle(QUIET_MS);
      expect(await smsSentTo(from)).toEqual([]);
      expect(await modelRequests(`o1-${from}`)).toEqual([]);
      expect(
        logs.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('"reason":"not_a_bot_number"')),
      ).toHaveLength(1);
    } finally {
      logs.mockRestore();
    }
  });
});

describe("WhatsApp on the same webhook", () => {
  it("answers over WhatsApp from the sender written to, tells the model it is WhatsApp, and keeps to 1,600 characters", async () => {
    const person = whatsapp(newSender());
    const marker = `w1-${person}`;
    // Long, with typography SMS would fold to GSM-7: WhatsApp keeps it.
    await scriptModel({
      match: marker,
      reply: `It’s “fine” 🙂. ${"A sentence that goes on for a while. ".repeat(80)}`,
      times: 1,
    });
    await send({ from: person, to: whatsapp(BOT_NUMBER), body: `tell me everything ${marker}` });
    await eventually(sentCount(person, 1), 15_000, "the answer");
    const [sent] = await smsSentTo(person);
    expect(sent).toMatchObject({ to: person, from: whatsapp(BOT_NUMBER) });
    expect(sent!.body.length).toBeLessThanOrEqual(1_600);
    expect(sent!.body.length).toBeGreaterThan(1_000);
    expect(sent!.body).toMatch(/^It’s “fine” 🙂\./);
    expect(await systemPrompt(marker)).toContain("WhatsApp");
  });

  it("gives the model a shared location (no Body, Latitude/Longitude) as a location line, and answers it", async () => {
    const person = whatsapp(newSender());
    const marker = `loc-${person}`;
    const params: [string, string][] = [
      ...smsParams({ from: person, to: whatsapp(BOT_NUMBER), body: "" }),
      ["MessageType", "location"],
      ["Latitude", "37.7825"],
      ["Longitude", "-122.4079"],
      ["Label", `Blue Bottle ${marker}`],
      ["Address", "66 Mint St, San Francisco"],
    ];
    const res = await callWorker(env, await signedSmsRequest(env, params));
    expect(await res.text()).not.toContain("<Message>");
    await eventually(sentCount(person, 1), 15_000, "the answer");
    const asked = (await modelRequests(marker)).find((r) => r.messages.some((m) => m.content.includes(marker)))!;
    expect(JSON.stringify(asked.messages)).toContain(
      `[location: Blue Bottle ${marker}, 66 Mint St, San Francisco (37.7825, -122.4079)]`,
    );
  });

  it("answers a WhatsApp screenshot with a question from the picture, fetched with the account's credentials", async () => {
    const person = whatsapp(newSender());
    const sid = newMessageSid();
    const media = [
      await twilioMedia({ name: "error.png", png: { width: 320, height: 240, colour: "#1e3cdc" }, message: sid }),
    ];
    const params = smsParams({
      from: person,
      to: whatsapp(BOT_NUMBER),
      body: `what's this error? wa-${sid}`,
      sid,
      media,
    });
    const first = await callWorker(env, await signedSmsRequest(env, params));
    expect(await first.text()).not.toContain("<Message>");
    await eventually(async () => (await smsSentTo(person)).length === 1, 15_000, "the answer");
    expect((await smsSentTo(person))[0]!.body).toContain("PNG picture, 320×240, mostly blue");
    // Without the account's credentials Twilio's media URL is refused.
    expect((await fetch(media[0]!.MediaUrl)).status).toBe(401);
  });

  it("confirms STOP itself (Twilio does not on WhatsApp), sends nothing more until START, and leaves the number's SMS alone", async () => {
    const number = newSender();
    const person = whatsapp(number);
    const stop = smsParams({ from: person, to: whatsapp(BOT_NUMBER), body: "STOP", sid: newMessageSid() });
    const confirmed = await callWorker(env, await signedSmsRequest(env, stop));
    expect(await confirmed.text()).toContain("Send START to talk again.");
    // Twilio delivering the same STOP again gets no second confirmation.
    expect(await (await callWorker(env, await signedSmsRequest(env, stop))).text()).not.toContain("<Message>");

    await send({ from: person, to: whatsapp(BOT_NUMBER), body: `are you still there? q1-${number}` });
    await send({ from: number, to: BOT_NUMBER, body: `and by SMS? q2-${number}` });
    await eventually(sentCount(number, 1), 15_000, "the SMS answer");
    await settle(QUIET_MS);
    expect(await smsSentTo(person)).toEqual([]);
    expect(await modelRequests(`q1-${number}`)).toEqual([]);

    expect(await send({ from: person, to: whatsapp(BOT_NUMBER), body: "START" })).toContain("Welcome back");
    await send({ from: person, to: whatsapp(BOT_NUMBER), body: `hello again q3-${number}` });
    await eventually(sentCount(person, 1), 15_000, "the answer after START");
  });

  it("answers HELP on WhatsApp like any question: no one else does", async () => {
    const person = whatsapp(newSender());
    expect(await send({ from: person, to: whatsapp(BOT_NUMBER), body: "HELP" })).not.toContain("<Message>");
    await eventually(sentCount(person, 1), 15_000, "the answer");
  });
});
