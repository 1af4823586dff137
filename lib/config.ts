/**
 * @module
 * One zod schema over the Worker's env. A platform is enabled when its secrets are set.
 * Errors name the setting and say how to fix it; they never carry a setting's value.
 */
import * as z from "./zod.ts";
import { decodeKey, KEY_BYTES } from "./secrets/keyring.ts";

const text = z.string().check(z.trim(), z.minLength(1));
const optionalText = z.pipe(z.optional(z.string().check(z.trim())), z.transform((v) => (v ? v : undefined)));
const url = z.pipe(z.pipe(text, z.url({ protocol: /^https?$/ })), z.transform((v) => v.replace(/\/+$/, "")));
const seconds = (fallback: number) => z._default(z.coerce.number().check(z.int(), z.positive()), fallback);
const flag = (fallback: boolean) =>
  z.pipe(
    z._default(z.union([z.boolean(), z.enum(["true", "false", "1", "0", "yes", "no", "on", "off", ""])]), fallback),
    z.transform((v) => v === true || v === "true" || v === "1" || v === "yes" || v === "on"),
  );
/** A flag with no default: undefined (unset or empty) lets the caller decide. */
const optionalFlag = z.pipe(
  z.optional(z.union([z.boolean(), z.enum(["true", "false", "1", "0", "yes", "no", "on", "off", ""])])),
  z.transform((v) => (v === undefined || v === "" ? undefined : v === true || v === "true" || v === "1" || v === "yes" || v === "on")),
);
const list = z.pipe(
  z._default(z.string(), ""),
  z.transform((v) =>
    v
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  ),
);

const encryptionKey = text.check(z.refine((v) => decodeKey(v) !== null, `must be the base64 of ${KEY_BYTES} random bytes (\`openssl rand -base64 ${KEY_BYTES}\`)`));
/** Shorter tokens can be guessed online; the admin route also rate limits failed attempts. */
const ADMIN_TOKEN_MIN_CHARS = 32;

const DEFAULT_PERSONA =
  "You are a helpful, friendly member of this chat. Answer briefly and naturally, like a person in a group chat.";

export const settingsSchema = z.object({
  UPSTASH_REDIS_REST_URL: url,
  UPSTASH_REDIS_REST_TOKEN: text,
  QSTASH_URL: z._default(url, "https://qstash.upstash.io"),
  QSTASH_TOKEN: text,
  QSTASH_CURRENT_SIGNING_KEY: text,
  QSTASH_NEXT_SIGNING_KEY: text,
  PUBLIC_BASE_URL: url,

  OPENAI_API_KEY: text,
  OPENAI_BASE_URL: z._default(url, "https://api.openai.com/v1"),
  LLM_MODEL: z._default(text, "gpt-4o-mini"),
  JUDGE_MODEL: optionalText,
  LLM_TIMEOUT_MS: z._default(z.coerce.number().check(z.int(), z.positive()), 20_000),
  PROMPT_TOKEN_BUDGET: z._default(z.coerce.number().check(z.int(), z.gte(256)), 6_000),
  MAX_REPLY_TOKENS: z._default(z.coerce.number().check(z.int(), z.positive()), 600),

  DISCORD_APPLICATION_ID: optionalText,
  DISCORD_PUBLIC_KEY: optionalText.check(z.refine((v) => v === undefined || /^[0-9a-f]{64}$/i.test(v), "must be the 64 hex characters of the application's public key")),
  DISCORD_BOT_TOKEN: optionalText,
  DISCORD_API_BASE_URL: z._default(url, "https://discord.com/api/v10"),
  /** Where the Gateway connection goes (a local fake Gateway in tests); Discord's resume URLs take over after READY. */
  DISCORD_GATEWAY_URL: z._default(z.pipe(text, z.url({ protocol: /^wss?$/ })), "wss://gateway.discord.gg"),

  SLACK_SIGNING_SECRET: optionalText,
  SLACK_BOT_TOKEN: optionalText,
  SLACK_API_BASE_URL: z._default(url, "https://slack.com/api"),
  /** Both set: installable in many workspaces (/slack/install), each with its own token; SLACK_BOT_TOKEN unused. */
  SLACK_CLIENT_ID: optionalText,
  SLACK_CLIENT_SECRET: optionalText,

  TWILIO_ACCOUNT_SID: optionalText,
  TWILIO_AUTH_TOKEN: optionalText,
  TWILIO_PHONE_NUMBER: optionalText,
  /** More bot numbers on the same account, comma-separated; each covers its WhatsApp sender (`whatsapp:+…`) too. */
  TWILIO_PHONE_NUMBERS: z.pipe(list, z.array(z.string().check(z.regex(/^(whatsapp:)?\+[1-9]\d{6,14}$/, "must list E.164 numbers (+15551234567), comma-separated")))),
  /** A Messaging Service whose senders are all the bot's: texts through it are answered through it. */
  TWILIO_MESSAGING_SERVICE_SID: z.pipe(optionalText, z.optional(z.string().check(z.regex(/^MG[0-9a-fA-F]{32}$/, "must be a Messaging Service sid (MG + 32 hex)")))),
  TWILIO_API_BASE_URL: z._default(url, "https://api.twilio.com"),

  /** One prefix per bot: bots sharing a Redis database never see each other's keys. */
  REDIS_KEY_PREFIX: z._default(text.check(z.regex(/^[A-Za-z0-9_.-]+$/, "letters, digits, _ . - only")), "parley"),
  ADMIN_TOKEN: optionalText.check(z.refine((v) => v === undefined || v.length >= ADMIN_TOKEN_MIN_CHARS, `must be at least ${ADMIN_TOKEN_MIN_CHARS} characters (\`openssl rand -base64 32\`)`)),
  /** Encrypts the personal fields of queued jobs (and stored platform tokens); keys the pseudonyms in log lines. */
  TOKEN_ENCRYPTION_KEY: encryptionKey,
  /** Older keys, comma-separated: they only open what they sealed, so a rotation loses nothing in flight. */
  TOKEN_ENCRYPTION_PREVIOUS_KEYS: z.pipe(list, z.array(encryptionKey)),

  BOT_NAME: z._default(text, "Parley"),
  BOT_ALIASES: list,
  BOT_PERSONA: z._default(text, DEFAULT_PERSONA),
  RESET_WORDS: z.pipe(
    z._default(z.string(), "start over,new topic,reset"),
    z.transform((v) =>
      v
        .split(",")
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  ),

  CONVERSATION_TIMEOUT_SECONDS: seconds(120),
  /** Fractions allowed (0.1 = 6 s) so tests and demos can watch an SMS conversation end. */
  SMS_CONVERSATION_GAP_MINUTES: z._default(z.coerce.number().check(z.gte(1 / 60)), 30),
  /** The length the model is asked to keep an SMS answer under; longer answers are cut at a sentence. */
  SMS_REPLY_TARGET_CHARS: z._default(z.coerce.number().check(z.int(), z.gte(70), z.lte(1_600)), 320),
  /** Texts that arrive within this many seconds of each other get one answer. */
  SMS_BURST_WINDOW_SECONDS: z._default(z.coerce.number().check(z.int(), z.gte(0), z.lte(60)), 4),
  FOLLOWUP_WINDOW_SECONDS: seconds(60),
  MAX_STORED_MESSAGES: z._default(z.coerce.number().check(z.int(), z.gte(10)), 200),
  /** Unset: on when OPENAI_BASE_URL is a real model's endpoint, off with a local one (see resolveJudge). */
  USE_LLM_JUDGE: optionalFlag,

  /** Answers appear as they are written where the platform can show that (Slack streams, Discord edits). */
  STREAMING: flag(true),
  /** A sign that the bot is working as soon as its job starts: Slack status or reaction, Discord typing. */
  SHOW_WORKING: flag(true),
  /** Slack's assistant status beside the bot's name while it works ("Parley is thinking…"). */
  STATUS_TEXT: z._default(text, "is thinking…"),
  /** The reaction put on a Slack channel message while the bot works on it (emoji name); empty for none. */
  STATUS_REACTION: z._default(z.string().check(z.trim()), "eyes"),

  /** Durable facts about people, extracted after each answer and kept per tenant and person. */
  MEMORY_ENABLED: flag(true),
  /** Folding the oldest messages of a long conversation into its running summary. */
  SUMMARY_ENABLED: flag(true),
  FACTS_PER_PERSON: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 20),
  FACTS_IN_PROMPT: z._default(z.coerce.number().check(z.int(), z.gte(0), z.lte(100)), 10),
  /** Facts expire this long after the person's last new fact. */
  FACTS_TTL_DAYS: z._default(z.coerce.number().check(z.int(), z.gte(1)), 90),

  /** Recall of earlier conversations by meaning (Upstash Vector); on only when the index below is set too. */
  RECALL_ENABLED: flag(true),
  UPSTASH_VECTOR_REST_URL: z.pipe(optionalText, z.optional(url)),
  UPSTASH_VECTOR_REST_TOKEN: optionalText,
  /** Passages older than this are deleted by the cron (Upstash Vector has no TTL). */
  RECALL_RETENTION_DAYS: z._default(z.coerce.number().check(z.int(), z.gte(1)), 90),

  /** Answers one person gets per window (checked in the job, before the model is called). */
  RATE_LIMIT_REPLIES: z._default(z.coerce.number().check(z.int(), z.gte(1)), 10),
  RATE_LIMIT_WINDOW_SECONDS: seconds(60),
  /** How much of one message is stored and taken into the prompt; the rest is cut. */
  MAX_MESSAGE_CHARS: z._default(z.coerce.number().check(z.int(), z.gte(100)), 4_000),
  /** Judge calls per conversation per minute; over the cap the judge answers NO without a model call. */
  MAX_JUDGE_CALLS_PER_MINUTE: z._default(z.coerce.number().check(z.int(), z.gte(0)), 6),
  /** Model tokens one tenant (workspace, guild, account) may use per UTC day; unset: no limit. */
  TENANT_DAILY_TOKEN_BUDGET: z.pipe(z.transform((v) => (v === "" ? undefined : v)), z.optional(z.coerce.number().check(z.int(), z.positive()))),
});

export type Settings = Omit<z.output<typeof settingsSchema>, "USE_LLM_JUDGE"> & { USE_LLM_JUDGE: boolean };

const LOCAL_HOSTS = /^(?:localhost|127(?:\.\d+){3}|\[::1\]|0\.0\.0\.0|[^.]+|.+\.local)$/;

/**
 * The judge is worth its call with a real model, which tells a follow-up from chatter far better than the cheap
 * signals; the local model (dev, tests) only mimics one, so there it stays off unless asked for.
 */
function resolveJudge(s: z.output<typeof settingsSchema>): Settings {
  return { ...s, USE_LLM_JUDGE: s.USE_LLM_JUDGE ?? !LOCAL_HOSTS.test(new URL(s.OPENAI_BASE_URL).hostname) };
}

/** Which platforms have the secrets they need. */
export interface EnabledPlatforms {
  slack: boolean;
  discord: boolean;
  twilio: boolean;
}

export class ConfigError extends Error {
  readonly settings: string[];
  constructor(problems: { name: string; problem: string }[]) {
    super(
      "Invalid settings: " +
        problems.map((p) => `${p.name} ${p.problem}`).join("; ") +
        ". Set them in .dev.vars locally, or with `wrangler secret put NAME` / [vars] in wrangler.toml.",
    );
    this.name = "ConfigError";
    this.settings = problems.map((p) => p.name);
  }
}

/** Parses the Worker env. Throws ConfigError naming every bad setting (never their values). */
export function parseSettings(env: Record<string, unknown>): Settings {
  const result = settingsSchema.safeParse(env);
  if (result.success) return resolveJudge(result.data);
  const problems = result.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? "env");
    const missing = env[name] === undefined || env[name] === "";
    return { name, problem: missing ? "is not set" : "is malformed (" + issue.message.toLowerCase() + ")" };
  });
  throw new ConfigError(problems);
}

/** The Vector index recall uses, or null when recall is off or has no index to use. */
export function recallIndexSettings(s: Settings): { url: string; token: string } | null {
  if (!s.RECALL_ENABLED || !s.UPSTASH_VECTOR_REST_URL || !s.UPSTASH_VECTOR_REST_TOKEN) return null;
  return { url: s.UPSTASH_VECTOR_REST_URL, token: s.UPSTASH_VECTOR_REST_TOKEN };
}

export function enabledPlatforms(s: Settings): EnabledPlatforms {
  return {
    slack: Boolean(s.SLACK_SIGNING_SECRET && (s.SLACK_BOT_TOKEN || slackInstallable(s))),
    discord: Boolean(s.DISCORD_APPLICATION_ID && s.DISCORD_PUBLIC_KEY),
    twilio: Boolean(s.TWILIO_ACCOUNT_SID && s.TWILIO_AUTH_TOKEN && (s.TWILIO_PHONE_NUMBER || s.TWILIO_PHONE_NUMBERS.length || s.TWILIO_MESSAGING_SERVICE_SID)),
  };
}

/** Installable in many workspaces through OAuth: each workspace's token comes from its installation. */
export function slackInstallable(s: Pick<Settings, "SLACK_CLIENT_ID" | "SLACK_CLIENT_SECRET">): boolean {
  return Boolean(s.SLACK_CLIENT_ID && s.SLACK_CLIENT_SECRET);
}
