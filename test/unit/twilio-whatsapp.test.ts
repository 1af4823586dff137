import { describe, expect, it } from "vitest";
import { ConfiguredPlatforms } from "../../lib/platforms/configured.ts";
import { adapters } from "../../lib/platforms/index.ts";
import { twilioSettings } from "../../lib/platforms/twilio/settings.ts";
import { reachedBot } from "../../lib/platforms/twilio/numbers.ts";
import { fitWhatsAppReply, whatsappKeyword } from "../../lib/platforms/twilio/whatsapp.ts";
import { MINIMAL_SETTINGS } from "../support/settings.ts";

const settings = (extra: Record<string, string>) => twilioSettings.read({ ...MINIMAL_SETTINGS, ...extra }).settings;
/** Twilio's state with these settings: a malformed number list or service sid turns it off, naming the setting. */
const problems = (extra: Record<string, string>) => {
  const state = new ConfiguredPlatforms(adapters, {
    ...MINIMAL_SETTINGS,
    TWILIO_ACCOUNT_SID: "AC1",
    TWILIO_AUTH_TOKEN: "t",
    ...extra,
  }).state("twilio");
  return state.status === "misconfigured" ? state.problems.map((p) => `${p.name} ${p.problem}`).join("; ") : "";
};
const SERVICE = "MG0123456789abcdef0123456789abcdef";

describe("which texts are the bot's", () => {
  const s = settings({
    TWILIO_PHONE_NUMBER: "+15550000001",
    TWILIO_PHONE_NUMBERS: "+15550000002, whatsapp:+15550000003",
    TWILIO_MESSAGING_SERVICE_SID: SERVICE,
  });

  it("takes any listed number, on SMS and as its WhatsApp sender", () => {
    for (const to of ["+15550000001", "whatsapp:+15550000001", "+15550000002", "+15550000003", "whatsapp:+15550000003"])
      expect(reachedBot(s, { To: to })).toBe(true);
    expect(reachedBot(s, { To: "+15550000009" })).toBe(false);
  });

  it("takes any sender of the bot's Messaging Service, and no other service's", () => {
    expect(reachedBot(s, { To: "+15550000009", MessagingServiceSid: SERVICE })).toBe(true);
    expect(reachedBot(s, { To: "+15550000009", MessagingServiceSid: `MG${"f".repeat(32)}` })).toBe(false);
  });

  it("refuses a malformed number list or service sid, naming the setting", () => {
    expect(problems({ TWILIO_PHONE_NUMBERS: "+15550000002, 555-1234" })).toMatch(/TWILIO_PHONE_NUMBERS is malformed/);
    expect(problems({ TWILIO_MESSAGING_SERVICE_SID: "PN123" })).toMatch(/TWILIO_MESSAGING_SERVICE_SID is malformed/);
  });
});

describe("WhatsApp answers and keywords", () => {
  it("cuts at 1,600 characters at a sentence end and keeps emoji and typography", () => {
    const long = `It’s “fine” 🙂. ${"Another sentence here. ".repeat(100)}`;
    const fitted = fitWhatsAppReply(long);
    expect(fitted.length).toBeLessThanOrEqual(1_600);
    expect(fitted).toMatch(/^It’s “fine” 🙂\./);
    expect(fitted).toMatch(/\.$/);
  });

  it("knows STOP and START, and leaves HELP to the bot", () => {
    expect(whatsappKeyword(" stop ")).toBe("opt_out");
    expect(whatsappKeyword("START")).toBe("opt_in");
    expect(whatsappKeyword("HELP")).toBeNull();
    expect(whatsappKeyword("please stop")).toBeNull();
  });
});
