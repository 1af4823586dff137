import { describe, expect, it } from "vitest";
import { ConfigError, parseSettings, recallIndexSettings } from "../../lib/config.ts";
import { ConfiguredPlatforms } from "../../lib/platforms/configured.ts";
import { adapters } from "../../lib/platforms/index.ts";
import { slackSettings } from "../../lib/platforms/slack/settings.ts";
import { twilioSettings } from "../../lib/platforms/twilio/settings.ts";
import { MINIMAL_SETTINGS } from "../support/settings.ts";

const minimal = MINIMAL_SETTINGS;

describe("settings", () => {
  it("fills documented defaults and trims the trailing slash of URLs", () => {
    const s = parseSettings(minimal);
    expect(s.CONVERSATION_TIMEOUT_SECONDS).toBe(120);
    expect(twilioSettings.read(minimal).settings.SMS_CONVERSATION_GAP_MINUTES).toBe(30);
    expect(s.FOLLOWUP_WINDOW_SECONDS).toBe(60);
    expect(s.USE_LLM_JUDGE).toBe(true);
    expect(s.PUBLIC_BASE_URL).toBe("https://bot.example.com");
    expect(slackSettings.read(minimal).settings.SLACK_API_BASE_URL).toBe("https://slack.com/api");
  });

  it("asks the LLM judge by default only with a real model endpoint, and always as set", () => {
    expect(parseSettings({ ...minimal, OPENAI_BASE_URL: "https://api.example.com/v1" }).USE_LLM_JUDGE).toBe(true);
    for (const local of ["http://127.0.0.1:8787/v1", "http://localhost:9000/v1", "http://model/v1"]) {
      expect(parseSettings({ ...minimal, OPENAI_BASE_URL: local }).USE_LLM_JUDGE).toBe(false);
    }
    expect(parseSettings({ ...minimal, USE_LLM_JUDGE: "false" }).USE_LLM_JUDGE).toBe(false);
    expect(
      parseSettings({ ...minimal, OPENAI_BASE_URL: "http://127.0.0.1:8787/v1", USE_LLM_JUDGE: "on" }).USE_LLM_JUDGE,
    ).toBe(true);
  });

  it("names every missing setting without echoing any value", () => {
    const err = (() => {
      try {
        parseSettings({ ...minimal, QSTASH_TOKEN: undefined, UPSTASH_REDIS_REST_URL: "not a url" });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ConfigError);
    const message = (err as ConfigError).message;
    expect(message).toContain("QSTASH_TOKEN is not set");
    expect(message).toContain("UPSTASH_REDIS_REST_URL is malformed");
    expect(message).not.toContain("secret-redis-token");
    expect(message).not.toContain("not a url");
  });

  it("refuses a missing or malformed encryption key, naming it", () => {
    const problems = (env: Record<string, unknown>) => {
      try {
        parseSettings(env);
        return [];
      } catch (e) {
        return (e as ConfigError).settings;
      }
    };
    expect(problems({ ...minimal, TOKEN_ENCRYPTION_KEY: undefined })).toEqual(["TOKEN_ENCRYPTION_KEY"]);
    expect(problems({ ...minimal, TOKEN_ENCRYPTION_KEY: btoa("sixteen byte key") })).toEqual(["TOKEN_ENCRYPTION_KEY"]);
    expect(problems({ ...minimal, TOKEN_ENCRYPTION_KEY: "not base64 at all!" })).toEqual(["TOKEN_ENCRYPTION_KEY"]);
    expect(problems({ ...minimal, TOKEN_ENCRYPTION_PREVIOUS_KEYS: `${minimal.TOKEN_ENCRYPTION_KEY},nope` })).toEqual([
      "TOKEN_ENCRYPTION_PREVIOUS_KEYS",
    ]);
  });

  it("turns off only its own feature for a malformed optional setting, naming it without its value", () => {
    const s = parseSettings({
      ...minimal,
      ADMIN_TOKEN: "short-secret",
      STREAMING: "maybe",
      CONVERSATION_TIMEOUT_SECONDS: "two minutes",
    });
    expect(s.ADMIN_TOKEN).toBeUndefined();
    expect(s.STREAMING).toBe(false);
    expect(s.CONVERSATION_TIMEOUT_SECONDS).toBe(120);
    expect(s.ignored.map((p) => p.name)).toEqual(["ADMIN_TOKEN", "CONVERSATION_TIMEOUT_SECONDS", "STREAMING"]);
    expect(s.ignored.find((p) => p.name === "ADMIN_TOKEN")?.problem).toContain("must be at least 32 characters");
    expect(JSON.stringify(s.ignored)).not.toContain("short-secret");
    expect(parseSettings({ ...minimal, ADMIN_TOKEN: "x".repeat(32) }).ignored).toEqual([]);
  });

  it("reads NAME= as unset: a setting with a default takes it, and nothing is said to be wrong", () => {
    const s = parseSettings({ ...minimal, LLM_TIMEOUT_MS: "", CONVERSATION_TIMEOUT_SECONDS: "" });
    expect([s.LLM_TIMEOUT_MS, s.CONVERSATION_TIMEOUT_SECONDS, s.ignored]).toEqual([20_000, 120, []]);
    const unconfigured = new ConfiguredPlatforms(adapters, {
      ...minimal,
      SLACK_API_BASE_URL: "",
      DISCORD_API_BASE_URL: "",
    });
    expect([unconfigured.state("slack").status, unconfigured.state("discord").status]).toEqual(["off", "off"]);
  });

  it("turns a platform on only when all of its secrets are set, and off, naming the setting, when one is malformed", () => {
    expect(new ConfiguredPlatforms(adapters, minimal).summary()).toEqual({
      slack: false,
      discord: false,
      twilio: false,
      telegram: false,
      "google-chat": false,
      teams: false,
    });
    const withSlack = new ConfiguredPlatforms(adapters, {
      ...minimal,
      SLACK_SIGNING_SECRET: "s",
      SLACK_BOT_TOKEN: "xoxb-1",
    });
    expect(withSlack.isOn("slack")).toBe(true);
    const badKey = new ConfiguredPlatforms(adapters, {
      ...minimal,
      SLACK_SIGNING_SECRET: "s",
      SLACK_BOT_TOKEN: "xoxb-1",
      DISCORD_APPLICATION_ID: "1",
      DISCORD_PUBLIC_KEY: "not-hex",
    });
    expect(badKey.summary()).toEqual({
      slack: true,
      discord: false,
      twilio: false,
      telegram: false,
      "google-chat": false,
      teams: false,
    });
    expect(badKey.state("discord")).toMatchObject({
      status: "misconfigured",
      problems: [{ name: "DISCORD_PUBLIC_KEY" }],
    });
    expect(JSON.stringify(badKey.state("discord"))).not.toContain("not-hex");
    // Telegram needs its token, its webhook's secret and its username; a secret Telegram would refuse turns it off.
    const telegram = {
      TELEGRAM_BOT_TOKEN: "123456:abcdefghijklmnopqrstuvwxyz",
      TELEGRAM_WEBHOOK_SECRET: "s3cret",
      TELEGRAM_BOT_USERNAME: "@ParleyBot",
    };
    expect(new ConfiguredPlatforms(adapters, { ...minimal, ...telegram }).isOn("telegram")).toBe(true);
    expect(
      new ConfiguredPlatforms(adapters, { ...minimal, ...telegram, TELEGRAM_BOT_USERNAME: "" }).isOn("telegram"),
    ).toBe(false);
    const badSecret = new ConfiguredPlatforms(adapters, {
      ...minimal,
      ...telegram,
      TELEGRAM_WEBHOOK_SECRET: "has spaces!",
    });
    expect(badSecret.state("telegram")).toMatchObject({
      status: "misconfigured",
      problems: [{ name: "TELEGRAM_WEBHOOK_SECRET" }],
    });
    expect(JSON.stringify(badSecret.state("telegram"))).not.toContain("has spaces");
  });

  it("reads flags and lists the way people write them", () => {
    const s = parseSettings({ ...minimal, USE_LLM_JUDGE: "true", BOT_ALIASES: " pb , parley bot ,," });
    expect(s.USE_LLM_JUDGE).toBe(true);
    expect(s.BOT_ALIASES).toEqual(["pb", "parley bot"]);
  });

  it("turns recall on only with an index to use, and off with RECALL_ENABLED=false", () => {
    const index = {
      UPSTASH_VECTOR_REST_URL: "https://parley-vector.upstash.io/",
      UPSTASH_VECTOR_REST_TOKEN: "vector-token",
    };
    expect(recallIndexSettings(parseSettings(minimal))).toBeNull();
    expect(
      recallIndexSettings(parseSettings({ ...minimal, UPSTASH_VECTOR_REST_URL: "", UPSTASH_VECTOR_REST_TOKEN: "" })),
    ).toBeNull();
    expect(recallIndexSettings(parseSettings({ ...minimal, ...index }))).toEqual({
      url: "https://parley-vector.upstash.io",
      token: "vector-token",
    });
    expect(recallIndexSettings(parseSettings({ ...minimal, ...index, RECALL_ENABLED: "false" }))).toBeNull();
    expect(parseSettings(minimal).RECALL_RETENTION_DAYS).toBe(90);
  });
});
