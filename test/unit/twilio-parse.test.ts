import { describe, expect, it } from "vitest";
import { isMediaOnly, MEDIA_ONLY_TEXT, parseTwilioSms, toInboundMessage } from "../../lib/platforms/twilio/parse.ts";

// The shape of Twilio's inbound SMS webhook (platforms.md), with the geo fields and a parameter Twilio might add.
const form = (overrides: Record<string, string> = {}) =>
  new URLSearchParams({
    ToCountry: "US",
    SmsMessageSid: "SM1234567890abcdef1234567890abcdef",
    NumMedia: "0",
    SmsSid: "SM1234567890abcdef1234567890abcdef",
    Body: "Is the pharmacy open on Sunday?",
    To: "+18005551212",
    NumSegments: "1",
    MessageSid: "SM1234567890abcdef1234567890abcdef",
    AccountSid: "AC0123456789abcdef0123456789abcdef",
    From: "+14158675309",
    ApiVersion: "2010-04-01",
    SomethingNew: "x",
    ...overrides,
  });

describe("parsing Twilio's SMS webhook", () => {
  it("turns a text into a direct message in the conversation of bot number and sender, within the account", () => {
    const parsed = parseTwilioSms(form());
    if (!parsed.ok) throw new Error(parsed.issues);
    const msg = toInboundMessage(parsed.sms, 1_700_000_000_000);
    expect(msg).toEqual({
      key: { platform: "twilio", tenant: "AC0123456789abcdef0123456789abcdef", channel: "+18005551212|+14158675309" },
      id: "SM1234567890abcdef1234567890abcdef",
      author: { id: "+14158675309", name: "Texter", isBot: false },
      text: "Is the pharmacy open on Sunday?",
      ts: 1_700_000_000_000,
      addressing: "dm",
      mentions: [],
      replyTarget: {
        platform: "twilio",
        accountSid: "AC0123456789abcdef0123456789abcdef",
        to: "+14158675309",
        from: "+18005551212",
      },
      visibility: "dm",
    });
  });

  it("keeps the parameters it does not know instead of refusing them", () => {
    const parsed = parseTwilioSms(form());
    expect(parsed.ok && parsed.sms.SomethingNew).toBe("x");
  });

  it("recognises a picture without words, but not a picture with a caption", () => {
    const photo = parseTwilioSms(form({ Body: "", NumMedia: "1", MediaUrl0: "https://api.twilio.com/x" }));
    expect(photo.ok && isMediaOnly(photo.sms)).toBe(true);
    expect(photo.ok && toInboundMessage(photo.sms, 0).text).toBe(MEDIA_ONLY_TEXT);
    const captioned = parseTwilioSms(form({ Body: "look at this", NumMedia: "1" }));
    expect(captioned.ok && isMediaOnly(captioned.sms)).toBe(false);
  });

  it("refuses a form without a MessageSid, with a bad account, or with an address that could forge a key", () => {
    const bads: Record<string, string>[] = [
      { MessageSid: "" },
      { AccountSid: "XX123" },
      { From: "+1|+2" },
      { To: "" },
      { NumMedia: "-1" },
    ];
    for (const bad of bads) {
      const parsed = parseTwilioSms(form(bad));
      expect(parsed.ok).toBe(false);
    }
  });
});
