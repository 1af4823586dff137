import { describe, expect, it } from "vitest";
import { ConfiguredPlatforms } from "../../lib/platforms/configured.ts";
import { adapters } from "../../lib/platforms/index.ts";
import { twilioSettings } from "../../lib/platforms/twilio/settings.ts";
import { conversationTtlSeconds } from "../../lib/runtime.ts";
import { parseSettings } from "../../lib/config.ts";
import { MINIMAL_SETTINGS } from "../support/settings.ts";

const minimal = {
  ...MINIMAL_SETTINGS,
  TWILIO_ACCOUNT_SID: "AC1",
  TWILIO_AUTH_TOKEN: "twilio-token",
  TWILIO_PHONE_NUMBER: "+15005550006",
};
const sms = { platform: "twilio", tenant: "AC1", channel: "+15005550006|+14155550100" } as const;
const ttl = (env: Record<string, unknown>, key: Parameters<typeof conversationTtlSeconds>[2]) =>
  conversationTtlSeconds(parseSettings(env), new ConfiguredPlatforms(adapters, env), key);

describe("SMS settings", () => {
  it("ends an SMS conversation after 30 quiet minutes, aims at 320 characters and waits 4 s for a burst by default", () => {
    const s = twilioSettings.read(minimal).settings;
    expect(ttl(minimal, sms)).toBe(1_800);
    expect(ttl(minimal, { platform: "slack", tenant: "T1", channel: "C1" })).toBe(120);
    expect(s.SMS_REPLY_TARGET_CHARS).toBe(320);
    expect(s.SMS_BURST_WINDOW_SECONDS).toBe(4);
  });

  it("takes a gap in fractions of a minute, in whole seconds", () => {
    expect(ttl({ ...minimal, SMS_CONVERSATION_GAP_MINUTES: "0.1" }, sms)).toBe(6);
    expect(ttl({ ...minimal, SMS_CONVERSATION_GAP_MINUTES: "45" }, sms)).toBe(2_700);
  });

  it("refuses a reply target over Twilio's 1,600 characters, keeping the default and naming the setting", () => {
    const read = twilioSettings.read({ ...minimal, SMS_REPLY_TARGET_CHARS: "2000" });
    expect(read.settings.SMS_REPLY_TARGET_CHARS).toBe(320);
    expect(read.ignored.map((p) => p.name)).toEqual(["SMS_REPLY_TARGET_CHARS"]);
    expect(new ConfiguredPlatforms(adapters, { ...minimal, SMS_REPLY_TARGET_CHARS: "2000" }).isOn("twilio")).toBe(true);
  });
});
