/**
 * @module
 * The Slack fake's settings: rate limits (real values by default, a shorter window for tests), the static tokens
 * of the default team, the OAuth app's credentials and token rotation, and where streaming is refused. Set at
 * start, changed at run time with `POST /__config` (any subset, merged per section), read with `GET /__config`,
 * restored by `POST /__reset`.
 */
import { z } from "zod";
import { SLACK_FAKE_STATIC_TOKENS } from "./workspaces.ts";

/** Slack's tiers, per method per workspace per app, in calls per minute. */
export const TIER = { t2: 20, t3: 50, t4: 100 } as const;

const limitSchema = z.strictObject({
  limit: z.number().int().positive(),
  windowMs: z.number().int().positive().optional(),
});

const rateLimitsSchema = z.strictObject({
  enabled: z.boolean(),
  /** The tiers' window: 60,000 ms as Slack counts them; a test can make the same limits pass in a second. */
  windowMs: z.number().int().positive(),
  /** chat.postMessage: about one message per second per channel, with short bursts. */
  postMessageBurst: z.number().int().positive(),
  postMessageIntervalMs: z.number().int().positive(),
  /** Per-method overrides, e.g. `{"conversations.replies": {limit: 1}}` (window: `windowMs` unless given). */
  methods: z.record(z.string(), limitSchema),
  /** chat.postMessage overrides for single channels: a test about something else can say it posts faster. */
  channels: z.record(z.string(), limitSchema).default({}),
});

const oauthSchema = z.strictObject({
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  /** Installs return expiring tokens and a refresh token. */
  tokenRotation: z.boolean(),
  /** Seconds a rotating token lives (Slack: 12 hours). */
  expiresIn: z.number().int().positive(),
});

const streamingSchema = z.strictObject({
  /** Teams that act as older (or GovSlack) workspaces: every streaming method answers `unknown_method`; `"*"` = all. */
  olderWorkspaces: z.array(z.string()),
  /**
   * Channel ids, or one-letter id prefixes (`C`, `G`, `D`), where chat.startStream answers
   * `channel_type_not_supported`.
   */
  refusedChannels: z.array(z.string()),
  /** Characters a stream may hold in all (and one `markdown_text` argument). */
  maxChars: z.number().int().positive(),
  /** Slack ends a stream server-side after about five minutes (unofficial); later appends are refused. */
  lifetimeMs: z.number().int().positive(),
});

const slackSettingsSchema = z.strictObject({
  rateLimits: rateLimitsSchema,
  staticTokens: z.array(z.string().min(1)),
  oauth: oauthSchema,
  streaming: streamingSchema,
});
export type SlackSettings = z.output<typeof slackSettingsSchema>;

/** What `POST /__config` and the start options accept: any section, any subset of it. */
export const slackSettingsPatchSchema = z.strictObject({
  rateLimits: rateLimitsSchema.partial().optional(),
  staticTokens: z.array(z.string().min(1)).optional(),
  oauth: oauthSchema.partial().optional(),
  streaming: streamingSchema.partial().optional(),
});
export type SlackSettingsPatch = z.input<typeof slackSettingsPatchSchema>;

export const SLACK_FAKE_OAUTH_CLIENT = { clientId: "1111111111.2222222222", clientSecret: "fake-slack-client-secret" };

export const DEFAULT_SLACK_SETTINGS: SlackSettings = {
  rateLimits: {
    enabled: true,
    windowMs: 60_000,
    postMessageBurst: 5,
    postMessageIntervalMs: 1_000,
    methods: {},
    channels: {},
  },
  staticTokens: [...SLACK_FAKE_STATIC_TOKENS],
  oauth: { ...SLACK_FAKE_OAUTH_CLIENT, tokenRotation: false, expiresIn: 43_200 },
  streaming: { olderWorkspaces: [], refusedChannels: [], maxChars: 12_000, lifetimeMs: 300_000 },
};

export function mergeSlackSettings(
  base: SlackSettings,
  patch: z.output<typeof slackSettingsPatchSchema>,
): SlackSettings {
  return {
    // Channel overrides add up, so suites running side by side can each exempt their own channel.
    rateLimits: {
      ...base.rateLimits,
      ...patch.rateLimits,
      channels: { ...base.rateLimits.channels, ...patch.rateLimits?.channels },
    },
    staticTokens: patch.staticTokens ?? base.staticTokens,
    oauth: { ...base.oauth, ...patch.oauth },
    streaming: { ...base.streaming, ...patch.streaming },
  };
}
