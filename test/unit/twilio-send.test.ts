import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTwilioFake, type RecordedTwilioMessage, type RunningTwilioFake } from "../../dev/fakes/twilio.ts";
import { GiveUp, RetryLater } from "../../lib/errors.ts";
import { findSentSms } from "../../lib/platforms/twilio/find-sent.ts";
import { sendTwilioSms } from "../../lib/platforms/twilio/send.ts";

let twilio: RunningTwilioFake;
const ACCOUNT = "AC00000000000000000000000000000001";
const BOT = "+15005550006";

beforeAll(async () => {
  twilio = await startTwilioFake({ port: 0 });
});
afterAll(async () => {
  await twilio.close();
});
beforeEach(async () => {
  await control("/__reset", {});
});

async function control(path: string, body: unknown): Promise<void> {
  const res = await fetch(`${twilio.url}${path}`, { method: "POST", body: JSON.stringify(body) });
  expect(res.status).toBe(200);
}

async function messages(to: string): Promise<RecordedTwilioMessage[]> {
  return (await (await fetch(`${twilio.url}/__calls?to=${encodeURIComponent(to)}`)).json()) as RecordedTwilioMessage[];
}

const send = (to: string, body: string, extra: { authToken?: string } = {}) =>
  sendTwilioSms({
    apiBaseUrl: twilio.url,
    accountSid: ACCOUNT,
    authToken: extra.authToken ?? "token",
    to,
    from: BOT,
    body,
  });

describe("sendTwilioSms", () => {
  it("sends one message with Basic auth and returns its sid", async () => {
    const sid = await send("+14155550100", "Hello there.");
    expect(sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(await messages("+14155550100")).toEqual([
      { accountSid: ACCOUNT, to: "+14155550100", from: BOT, body: "Hello there.", sid },
    ]);
  });

  it("gives up with code 21610 when the person has opted out", async () => {
    await control("/__fail", { to: "+14155550101", error: "21610" });
    const failure = await send("+14155550101", "Hi").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(GiveUp);
    expect((failure as GiveUp).code).toBe("21610");
    expect(await messages("+14155550101")).toEqual([]);
  });

  it("asks to retry later on a 429, honouring Retry-After, then sends", async () => {
    await control("/__fail", { to: "+14155550102", status: 429, retryAfter: 7 });
    const failure = await send("+14155550102", "Hi").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(RetryLater);
    expect((failure as RetryLater).retryAfterSeconds).toBe(7);
    await send("+14155550102", "Hi");
    expect(await messages("+14155550102")).toHaveLength(1);
  });

  it("treats a server error as retryable and a refused request as permanent", async () => {
    await control("/__fail", { to: "+14155550103", status: 503 });
    const serverError = await send("+14155550103", "Hi").catch((e: unknown) => e);
    expect(serverError).toBeInstanceOf(Error);
    expect(serverError).not.toBeInstanceOf(GiveUp);
    const tooLong = await send("+14155550103", "x".repeat(1_601)).catch((e: unknown) => e);
    expect(tooLong).toBeInstanceOf(GiveUp);
    expect((tooLong as GiveUp).code).toBe("21617");
  });
});

describe("findSentSms", () => {
  const find = (to: string, body: string, since: number) =>
    findSentSms({ apiBaseUrl: twilio.url, accountSid: ACCOUNT, authToken: "token", to, from: BOT, body, since });

  it("finds a text whose response was lost by its body among the texts sent to the person since the call began", async () => {
    const since = Date.now();
    await send("+14155550110", "An earlier answer.");
    await control("/__fail", { fault: "drop_after", path: "/messages.create", bodyContains: '"to":"+14155550110"' });
    expect(await send("+14155550110", "The answer whose response was lost.").catch((e: unknown) => e)).toBeInstanceOf(
      Error,
    );
    const [lost] = (await messages("+14155550110")).slice(-1);
    expect(await find("+14155550110", "The answer whose response was lost.", since)).toBe(lost!.sid);
    expect(await find("+14155550110", "An answer never sent.", since)).toBeNull();
    expect(await find("+14155550111", "The answer whose response was lost.", since)).toBeNull();
  });

  it("takes the earliest text with those words since the call began, not another answer's sent after it", async () => {
    const since = Date.now();
    await control("/__fail", { fault: "drop_after", path: "/messages.create", bodyContains: '"to":"+14155550113"' });
    expect(await send("+14155550113", "May I run it?").catch((e: unknown) => e)).toBeInstanceOf(Error);
    const [lost] = await messages("+14155550113");
    // The same question again, from another answer, before the retry looks.
    await send("+14155550113", "May I run it?");
    expect(await find("+14155550113", "May I run it?", since)).toBe(lost!.sid);
  });

  it("does not take a text sent well before the call began for it", async () => {
    await send("+14155550112", "Same words.");
    expect(await find("+14155550112", "Same words.", Date.now() + 60_000)).toBeNull();
  });
});
