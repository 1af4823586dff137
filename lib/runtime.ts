/**
 * @module
 * Everything a flow needs, built once per Worker env: settings, the store, the queue, the model, a clock, a logger.
 */
import { Redis } from "@upstash/redis/cloudflare";
import { enabledPlatforms, parseSettings, type EnabledPlatforms, type Settings } from "./config.ts";
import { ConversationStore } from "./conversation/store.ts";
import { createLlm, type Llm } from "./llm/client.ts";
import { logger, type Logger } from "./log.ts";
import type { BotIdentity, ConversationKey } from "./message.ts";
import { createJobQueue, type JobQueue } from "./queue/publish.ts";
import { Keyring } from "./secrets/keyring.ts";
import { Pseudonyms } from "./secrets/pseudonym.ts";
import { Sealer } from "./secrets/seal.ts";
import { Installations } from "./tenants/installations.ts";

export interface Runtime {
  settings: Settings;
  platforms: EnabledPlatforms;
  redis: Redis;
  store: ConversationStore;
  queue: JobQueue;
  llm: Llm;
  log: Logger;
  secrets: RuntimeSecrets;
  /** OAuth installations per tenant, their tokens sealed (lib/tenants/). */
  installations: Installations;
  now(): number;
}

/** What TOKEN_ENCRYPTION_KEY keys: the sealed personal fields of jobs, the pseudonyms of personal ids, install states. */
export interface RuntimeSecrets {
  jobs: Sealer;
  pseudonyms: Pseudonyms;
  oauthState: Sealer;
}

export function conversationTtlSeconds(s: Settings, key: ConversationKey): number {
  return key.platform === "twilio" ? Math.round(s.SMS_CONVERSATION_GAP_MINUTES * 60) : s.CONVERSATION_TIMEOUT_SECONDS;
}

export function createRuntime(env: Record<string, unknown>): Runtime {
  const settings = parseSettings(env);
  const keyring = new Keyring(settings.TOKEN_ENCRYPTION_KEY, settings.TOKEN_ENCRYPTION_PREVIOUS_KEYS);
  const secrets: RuntimeSecrets = {
    jobs: new Sealer(keyring, "job-payload"),
    pseudonyms: new Pseudonyms(keyring),
    oauthState: new Sealer(keyring, "oauth-state"),
  };
  const redis = new Redis({
    url: settings.UPSTASH_REDIS_REST_URL,
    token: settings.UPSTASH_REDIS_REST_TOKEN,
    // A lost response must not replay a non-idempotent script for long: fail fast, let the platform retry.
    retry: { retries: 2, backoff: (n) => 50 * 2 ** n },
  });
  return {
    settings,
    platforms: enabledPlatforms(settings),
    redis,
    store: new ConversationStore(redis, {
      prefix: settings.REDIS_KEY_PREFIX,
      ttlSeconds: (key) => conversationTtlSeconds(settings, key),
      maxMessages: settings.MAX_STORED_MESSAGES,
    }),
    queue: createJobQueue({
      qstashUrl: settings.QSTASH_URL,
      qstashToken: settings.QSTASH_TOKEN,
      publicBaseUrl: settings.PUBLIC_BASE_URL,
      secrets,
    }),
    llm: createLlm({
      apiKey: settings.OPENAI_API_KEY,
      baseUrl: settings.OPENAI_BASE_URL,
      model: settings.LLM_MODEL,
      judgeModel: settings.JUDGE_MODEL ?? settings.LLM_MODEL,
      timeoutMs: settings.LLM_TIMEOUT_MS,
      maxReplyTokens: settings.MAX_REPLY_TOKENS,
    }),
    log: logger,
    secrets,
    installations: new Installations(redis, settings.REDIS_KEY_PREFIX, new Sealer(keyring, "stored-token")),
    now: Date.now,
  };
}

/** The bot as the decider sees it: its id on the platform at hand, and the names from the settings. */
export function botIdentity(rt: Runtime, userId: string): BotIdentity {
  return { userId, name: rt.settings.BOT_NAME, aliases: rt.settings.BOT_ALIASES };
}

const cache = new WeakMap<object, Runtime>();

/** One runtime per env object: the Worker reuses it across requests of an isolate. */
export function runtimeFor(env: object): Runtime {
  let rt = cache.get(env);
  if (!rt) {
    rt = createRuntime(env as Record<string, unknown>);
    cache.set(env, rt);
  }
  return rt;
}
