import { describe, expect, it } from "vitest";
import { ConfigError, parseSettings } from "../../lib/config.ts";
import { conversationTtlSeconds } from "../../lib/runtime.ts";

const minimal = {
  UPSTASH_REDIS_REST_URL: "http://127.0.0.1:8079",
  UPSTASH_REDIS_REST_TOKEN: "secret-redis-token",
  QSTASH_TOKEN: "qstash-token",
  QSTASH_CURRENT_SIGNING_KEY: "sig_current",
  QSTASH_NEXT_SIGNING_KEY: "sig_next",
  PUBLIC_BASE_URL: "https://bot.example.com",
  OPENAI_API_KEY: "sk-secret",
};
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
