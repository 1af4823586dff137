/**
 * @module
 * The Twilio fake's Messages resource: listing what was sent (filters and paging as Twilio does) so a retry can
 * tell whether a text already went out, StatusCallback, Messaging Services and WhatsApp senders.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTwilioFake, type RunningTwilioFake } from "../../dev/fakes/twilio.ts";

const ACCOUNT = "AC0000000000000000000000000000test";
const SERVICE = `MG${"1".repeat(32)}`;
let twilio: RunningTwilioFake;
beforeAll(async () => {
  twilio = await startTwilioFake({ port: 0 });
});
afterAll(() => twilio.close());
beforeEach(() => fetch(`${twilio.url}/__reset`, { method: "POST" }));

const auth = { Authorization: `Basic ${Buffer.from(`${ACCOUNT}:token`).toString("base64")}` };
async function send(params: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${twilio.url}/2010-04-01/Accounts/${ACCOUNT}/Messages.json`, {
    method: "POST",
    headers: auth,
    body: new URLSearchParams(params),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
async function list(query: string): Promise<Record<string, unknown> & { messages: Record<string, unknown>[] }> {
  return (await (
    await fetch(`${twilio.url}/2010-04-01/Accounts/${ACCOUNT}/Messages.json?${query}`, { headers: auth })
  ).json()) as never;
}

describe("the Messages list", () => {
  it("finds what was sent to a number, newest first, in pages linked as Twilio links them", async () => {
    for (const body of ["one", "two", "three"])
      await send({
        To: "+14155550100",
        From: "+15005550006",
        Body: body,
        StatusCallback: "https://bot.example/status",
      });
    await send({ To: "+14155550199", From: "+15005550006", Body: "someone else" });
    const first = await list("To=%2B14155550100&PageSize=2");
    expect(first.messages.map((m) => m.body)).toEqual(["three", "two"]);
    expect(first).toMatchObject({ page: 0, page_size: 2, start: 0, previous_page_uri: null });
    const next = first.next_page_uri as string;
    expect(next).toMatch(/PageToken=PASM/);
    const second = (await (await fetch(`${twilio.url}${next}`, { headers: auth })).json()) as {
      messages: { body: string }[];
      next_page_uri: unknown;
    };
    expect(second.messages.map((m) => m.body)).toEqual(["one"]);
    expect(second.next_page_uri).toBeNull();
    const [call] = (await (await fetch(`${twilio.url}/__calls?body=one`)).json()) as { statusCallback: string }[];
    expect(call!.statusCallback).toBe("https://bot.example/status");
  });

  it("filters on the day sent and on the sender, and fetches one message by sid", async () => {
    const { body } = await send({ To: "+14155550100", From: "+15005550006", Body: "today" });
    const today = new Date().toISOString().slice(0, 10);
    expect((await list(`DateSent=${today}`)).messages).toHaveLength(1);
    expect((await list("DateSent%3C=2000-01-01")).messages).toHaveLength(0);
    expect((await list(`DateSent%3E=${today}&From=%2B15005550006`)).messages).toHaveLength(1);
    const fetched = await (
      await fetch(`${twilio.url}/2010-04-01/Accounts/${ACCOUNT}/Messages/${body.sid as string}.json`, { headers: auth })
    ).json();
    expect(fetched).toMatchObject({ sid: body.sid, status: "delivered", date_sent: expect.stringMatching(/\+0000$/) });
  });
});

describe("senders", () => {
  it("sends through a Messaging Service from one of its numbers, the same one for the same person", async () => {
    await fetch(`${twilio.url}/__config`, {
      method: "POST",
      body: JSON.stringify({ messagingServices: { [SERVICE]: { numbers: ["+15005550001", "+15005550002"] } } }),
    });
    const created = await send({ To: "+14155550100", MessagingServiceSid: SERVICE, Body: "hi" });
    expect(created).toMatchObject({
      status: 201,
      body: { status: "accepted", from: null, messaging_service_sid: SERVICE },
    });
    await send({ To: "+14155550100", MessagingServiceSid: SERVICE, Body: "again" });
    const senders = new Set((await list("To=%2B14155550100")).messages.map((m) => m.from));
    expect(senders.size).toBe(1);
    expect(["+15005550001", "+15005550002"]).toContain([...senders][0]);
    expect((await send({ To: "+14155550100", MessagingServiceSid: `MG${"9".repeat(32)}`, Body: "x" })).body.code).toBe(
      21701,
    );
  });

  it("sends WhatsApp between whatsapp: addresses only, within Twilio's 1,600 characters", async () => {
    const to = "whatsapp:+14155550100";
    expect((await send({ To: to, From: "whatsapp:+15005550006", Body: "hola" })).status).toBe(201);
    expect((await send({ To: to, From: "+15005550006", Body: "hola" })).body.code).toBe(21910);
    expect((await send({ To: to, From: "whatsapp:+15005550006", Body: "x".repeat(1_601) })).body.code).toBe(21617);
  });

  it("fails a WhatsApp text outside the 24-hour window with 63016, when the window is enforced", async () => {
    await fetch(`${twilio.url}/__config`, {
      method: "POST",
      body: JSON.stringify({ whatsappSessionWindowMs: 86_400_000 }),
    });
    const to = "whatsapp:+14155550100";
    const from = "whatsapp:+15005550006";
    expect((await send({ To: to, From: from, Body: "unprompted" })).status).toBe(201);
    await fetch(`${twilio.url}/__whatsapp_inbound`, { method: "POST", body: JSON.stringify({ from: to, to: from }) });
    await send({ To: to, From: from, Body: "answer" });
    expect((await list("To=whatsapp%3A%2B14155550100")).messages.map((m) => [m.body, m.status, m.error_code])).toEqual([
      ["answer", "delivered", null],
      ["unprompted", "failed", 63016],
    ]);
  });
});

describe("refusals", () => {
  it("refuses a Body over 1,600 characters with 21617, on SMS as on WhatsApp", async () => {
    expect((await send({ To: "+14155550100", From: "+15005550006", Body: "x".repeat(1_600) })).status).toBe(201);
    expect((await send({ To: "+14155550100", From: "+15005550006", Body: "x".repeat(1_601) })).body).toMatchObject({
      code: 21617,
      status: 400,
    });
  });

  it("refuses to message a person who texted STOP to that sender (21610), until they text START", async () => {
    const person = "+14155550177";
    await fetch(`${twilio.url}/__opt_out`, {
      method: "POST",
      body: JSON.stringify({ from: person, to: "+15005550006" }),
    });
    expect((await send({ To: person, From: "+15005550006", Body: "still there?" })).body).toMatchObject({
      code: 21610,
      status: 400,
    });
    expect((await send({ To: person, From: "+15005550007", Body: "from another number" })).status).toBe(201);
    await fetch(`${twilio.url}/__opt_out`, {
      method: "POST",
      body: JSON.stringify({ from: person, to: "+15005550006", optedOut: false }),
    });
    expect((await send({ To: person, From: "+15005550006", Body: "welcome back" })).status).toBe(201);
    expect((await list(`To=${encodeURIComponent(person)}`)).messages.map((m) => m.body)).toEqual([
      "welcome back",
      "from another number",
    ]);
  });

  it("refuses a message without To (21604) or Body (21602), and a caller without the account's credentials (20003)", async () => {
    expect((await send({ From: "+15005550006", Body: "x" })).body.code).toBe(21604);
    expect((await send({ To: "+14155550100", From: "+15005550006" })).body.code).toBe(21602);
    const res = await fetch(`${twilio.url}/2010-04-01/Accounts/${ACCOUNT}/Messages.json`, {
      method: "POST",
      body: new URLSearchParams({ To: "+14155550100", From: "+15005550006", Body: "x" }),
    });
    expect(((await res.json()) as { code: number }).code).toBe(20003);
  });
});
