/**
 * @module
 * The core's settings, read from the Worker env (each platform reads its own: lib/platforms/<name>/settings.ts).
 * Errors name the setting and say how to fix it; they never carry a setting's value. An essential setting missing
 * or malformed stops the Worker (ConfigError); any other malformed one turns off its own feature (a switch reads
 * as off, ADMIN_TOKEN as no admin view) or falls back to its default, and is listed in `ignored`.
 */
import * as z from "./zod.ts";
import { decodeKey, KEY_BYTES } from "./secrets/keyring.ts";
import {
  flag,
  list,
  optionalFlag,
  optionalText,
  readSettings,
  seconds,
  text,
  url,
  type SettingProblem,
} from "./settings-schema.ts";
import { toolSettingsShape } from "./tool-settings.ts";

const encryptionKey = text.check(
  z.refine(
    (v) => decodeKey(v) !== null,
    `must be the base64 of ${KEY_BYTES} random bytes (\`openssl rand -base64 ${KEY_BYTES}\`)`,
  ),
);
/** Shorter tokens can be guessed online; the admin route also rate limits failed attempts. */
const ADMIN_TOKEN_MIN_CHARS = 32;

const DEFAULT_PERSONA =
  "You are a helpful, friendly member of this chat. Answer briefly and naturally, like a person in a group chat.";

export const settingsShape = {
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
  /** Answers turns that carry images (docs/files.md); unset: LLM_MODEL. */
  VISION_MODEL: optionalText,
  LLM_TIMEOUT_MS: z._default(z.coerce.number().check(z.int(), z.positive()), 20_000),
  PROMPT_TOKEN_BUDGET: z._default(z.coerce.number().check(z.int(), z.gte(256)), 6_000),
  MAX_REPLY_TOKENS: z._default(z.coerce.number().check(z.int(), z.positive()), 600),

  /** One prefix per bot: bots sharing a Redis database never see each other's keys. */
  REDIS_KEY_PREFIX: z._default(text.check(z.regex(/^[A-Za-z0-9_.-]+$/, "letters, digits, _ . - only")), "parley"),
  ADMIN_TOKEN: optionalText.check(
    z.refine(
      (v) => v === undefined || v.length >= ADMIN_TOKEN_MIN_CHARS,
      `must be at least ${ADMIN_TOKEN_MIN_CHARS} characters (\`openssl rand -base64 32\`)`,
    ),
  ),
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
  FOLLOWUP_WINDOW_SECONDS: seconds(60),
  MAX_STORED_MESSAGES: z._default(z.coerce.number().check(z.int(), z.gte(10)), 200),
  /** Unset: on when OPENAI_BASE_URL is a real model's endpoint, off with a local one (see resolveJudge). */
  USE_LLM_JUDGE: optionalFlag,

  /** Answers appear as they are written where the platform can show that (Slack streams, Discord edits). */
  STREAMING: flag(true),
  /** A sign that the bot is working as soon as its job starts: Slack status or reaction, Discord typing. */
  SHOW_WORKING: flag(true),

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
  /** Files people paste (docs/files.md): the largest image sent to the model (0: none), and how many per answer. */
  IMAGE_MAX_BYTES: z._default(z.coerce.number().check(z.int(), z.gte(0), z.lte(20_000_000)), 5_000_000),
  IMAGES_PER_TURN: z._default(z.coerce.number().check(z.int(), z.gte(0), z.lte(10)), 4),
  /**
   * How much of one pasted text file is read into the prompt's data block (0: none), before the token budget cuts it.
   */
  TEXT_FILE_MAX_BYTES: z._default(z.coerce.number().check(z.int(), z.gte(0), z.lte(1_000_000)), 100_000),
  /**
   * What a conversation's start sees of the talk before it (lib/jobs/backfill.ts): the place's last this many
   * messages, written in the BACKFILL_MINUTES before the bot was called (a thread: the thread as it stands). 0 in
   * either turns it off (and on Telegram nothing is kept).
   */
  BACKFILL_MESSAGES: z._default(z.coerce.number().check(z.int(), z.gte(0), z.lte(100)), 30),
  BACKFILL_MINUTES: z._default(z.coerce.number().check(z.int(), z.gte(0), z.lte(1_440)), 60),
  /** "Catch me up" (lib/catch-up/step.ts): how far back it reads at most, and how many of the place's messages. */
  CATCHUP_MAX_HOURS: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(168)), 24),
  CATCHUP_MAX_MESSAGES: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(2_000)), 500),
  /** A person's own digest (lib/digests/personal-run.ts): at most this many channels, each read as a digest. */
  DIGEST_MAX_PLACES: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(50)), 10),
  /** Judge calls per conversation per minute; over the cap the judge answers NO without a model call. */
  MAX_JUDGE_CALLS_PER_MINUTE: z._default(z.coerce.number().check(z.int(), z.gte(0)), 6),
  /** Unprompted answers per place per hour where `/parley initiative on` allows them (lib/limits/initiative-cap.ts). */
  INITIATIVE_MAX_PER_HOUR: z._default(z.coerce.number().check(z.int(), z.gte(0)), 4),
  /**
   * How long a question addressed to nobody waits for a person's answer where `/parley rescue on` (lib/rescue/job.ts).
   */
  RESCUE_AFTER_MINUTES: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(120)), 10),
  /** Questions the bot steps in on per place per hour. */
  RESCUE_MAX_PER_HOUR: z._default(z.coerce.number().check(z.int(), z.gte(0)), 3),
  /** Model tokens one tenant (workspace, guild, account) may use per UTC day; unset: no limit. */
  TENANT_DAILY_TOKEN_BUDGET: z.pipe(
    z.transform((v) => (v === "" ? undefined : v)),
    z.optional(z.coerce.number().check(z.int(), z.positive())),
  ),
  /** The percentage of the tenant's day one person may spend (a member, or on SMS one phone number). */
  PERSON_DAILY_TOKEN_SHARE: z._default(z.coerce.number().check(z.gt(0), z.lte(100)), 20),
  /** Tools the model may ask for (./tool-settings.ts, docs/tools.md). */
  ...toolSettingsShape,
};

/**
 * Without these the Worker cannot run, or a fallback would be unsafe (another endpoint would get the model key,
 * another bot's keys would be shared, what older keys sealed could not be opened): missing or malformed, they stop it.
 */
const ESSENTIAL = [
  "UPSTASH_REDIS_REST_URL",
  "UPSTASH_REDIS_REST_TOKEN",
  "QSTASH_URL",
  "QSTASH_TOKEN",
  "QSTASH_CURRENT_SIGNING_KEY",
  "QSTASH_NEXT_SIGNING_KEY",
  "PUBLIC_BASE_URL",
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "REDIS_KEY_PREFIX",
  "TOKEN_ENCRYPTION_KEY",
  "TOKEN_ENCRYPTION_PREVIOUS_KEYS",
] as const;

/** What a malformed switch reads as: its feature off. */
const OFF = {
  USE_LLM_JUDGE: false,
  STREAMING: false,
  SHOW_WORKING: false,
  MEMORY_ENABLED: false,
  SUMMARY_ENABLED: false,
  RECALL_ENABLED: false,
};

type ShapeOutput = { [K in keyof typeof settingsShape]: z.output<(typeof settingsShape)[K]> };

export type Settings = Omit<ShapeOutput, "USE_LLM_JUDGE"> & {
  USE_LLM_JUDGE: boolean;
  /** Malformed settings that were read as off or as their default (logged once per isolate: lib/runtime.ts). */
  ignored: readonly SettingProblem[];
};

const LOCAL_HOSTS = /^(?:localhost|127(?:\.\d+){3}|\[::1\]|0\.0\.0\.0|[^.]+|.+\.local)$/;

/**
 * The judge is worth its call with a real model, which tells a follow-up from chatter far better than the cheap
 * signals; the local model (dev, tests) only mimics one, so there it stays off unless asked for.
 */
function resolveJudge(s: ShapeOutput): boolean {
  return s.USE_LLM_JUDGE ?? !LOCAL_HOSTS.test(new URL(s.OPENAI_BASE_URL).hostname);
}

export class ConfigError extends Error {
  readonly settings: string[];
  constructor(problems: SettingProblem[]) {
    super(
      "Invalid settings: " +
        problems.map((p) => `${p.name} ${p.problem}`).join("; ") +
        ". Set them in .dev.vars locally, or with `wrangler secret put NAME` / [vars] in wrangler.toml.",
    );
    this.name = "ConfigError";
    this.settings = problems.map((p) => p.name);
  }
}

/** Parses the Worker env. Throws ConfigError naming every bad essential setting (never their values). */
export function parseSettings(env: Record<string, unknown>): Settings {
  const read = readSettings(settingsShape, env, { essential: ESSENTIAL, off: OFF });
  if (read.essential.length > 0) throw new ConfigError(read.essential);
  return { ...read.settings, USE_LLM_JUDGE: resolveJudge(read.settings), ignored: read.ignored };
}

/** The Vector index recall uses, or null when recall is off or has no index to use. */
export function recallIndexSettings(s: Settings): { url: string; token: string } | null {
  if (!s.RECALL_ENABLED || !s.UPSTASH_VECTOR_REST_URL || !s.UPSTASH_VECTOR_REST_TOKEN) return null;
  return { url: s.UPSTASH_VECTOR_REST_URL, token: s.UPSTASH_VECTOR_REST_TOKEN };
}
