import { describe, expect, it } from "vitest";
import { ConfigError, parseSettings } from "../../lib/config.ts";
import { MINIMAL_SETTINGS } from "../support/settings.ts";
import { conversationTtlSeconds } from "../../lib/runtime.ts";

const minimal = MINIMAL_SETTINGS;
const sms = { platform: "twilio", tenant: "AC1", channel: "+15005550006|+14155550100" } as const;

describe("SMS settings", () => {
  it("ends an SMS conversation after 30 quiet minutes, aims at 320 characters and waits 4 s for a burst by default", () => {
    const s = parseSettings(minimal);
    expect(conversationTtlSeconds(s, sms)).toBe(1_800);
    expect(conversationTtlSeconds(s, { platform: "slack", tenant: "T1", channel: "C1" })).toBe(120);
    expect(s.SMS_REPLY_TARGET_CHARS).toBe(320);
    expect(s.SMS_BURST_WINDOW_SECONDS).toBe(4);
  });

  it("takes a gap in fractions of a minute, in whole seconds", () => {
    expect(conversationTtlSeconds(parseSettings({ ...minimal, SMS_CONVERSATION_GAP_MINUTES: "0.1" }), sms)).toBe(6);
    expect(conversationTtlSeconds(parseSettings({ ...minimal, SMS_CONVERSATION_GAP_MINUTES: "45" }), sms)).toBe(2_700);
  });

  it("refuses a reply target over Twilio's 1,600 characters", () => {
    expect(() => parseSettings({ ...minimal, SMS_REPLY_TARGET_CHARS: "2000" })).toThrow(ConfigError);
  });
});
