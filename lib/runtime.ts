/**
 * @module
 * Everything a flow needs, built once per Worker env: the services (lib/services.ts), every store (lib/stores.ts),
 * the queue, the model, the tools, and the platforms with their own settings. Only the flows (lib/ingest.ts,
 * lib/jobs/) and the routes take the whole runtime; everything below takes what it needs of it.
 */
import { Redis } from "@upstash/redis/cloudflare";
import { parseSettings, type Settings } from "./config.ts";
import { createLlm, type Llm } from "./llm/client.ts";
import { logger } from "./log.ts";
import type { BotIdentity, ConversationKey } from "./message.ts";
import type { PlatformAdapter } from "./platforms/adapter.ts";
import { ConfiguredPlatforms } from "./platforms/configured.ts";
import { adapters } from "./platforms/index.ts";
import { createJobQueue, type JobQueue } from "./queue/publish.ts";
import { createJobSchedules, type JobSchedules } from "./queue/schedules.ts";
import { Keyring } from "./secrets/keyring.ts";
import { Pseudonyms } from "./secrets/pseudonym.ts";
import { Sealer } from "./secrets/seal.ts";
import type { RuntimeSecrets, Services } from "./services.ts";
import { createStores, type Stores } from "./stores.ts";
import { createToolbox, type Toolbox } from "./tools/toolbox.ts";

export interface Runtime extends Services, Stores {
  platforms: ConfiguredPlatforms;
  queue: JobQueue;
  /** QStash schedules of jobs (a place's digest). */
  schedules: JobSchedules;
  llm: Llm;
  /** The tools the model may ask for, per tenant (lib/tools/, docs/tools.md). */
  tools: Toolbox;
}

/** How long a conversation lives without a message: its platform's own rule, or CONVERSATION_TIMEOUT_SECONDS. */
export function conversationTtlSeconds(s: Settings, platforms: ConfiguredPlatforms, key: ConversationKey): number {
  const adapter: PlatformAdapter | undefined = adapters.find((a) => a.platform === key.platform);
  const ttl = adapter?.settings.conversationTtlSeconds;
  const state = platforms.state(key.platform);
  return ttl && state.status !== "misconfigured" ? ttl(state.config) : s.CONVERSATION_TIMEOUT_SECONDS;
}

export function createRuntime(env: Record<string, unknown>): Runtime {
  const settings = parseSettings(env);
  const platforms = new ConfiguredPlatforms(adapters, env);
  logSettingProblems(settings, platforms);
  const keyring = new Keyring(settings.TOKEN_ENCRYPTION_KEY, settings.TOKEN_ENCRYPTION_PREVIOUS_KEYS);
  const secrets: RuntimeSecrets = {
    jobs: new Sealer(keyring, "job-payload"),
    pseudonyms: new Pseudonyms(keyring),
    toolPseudonyms: new Pseudonyms(keyring, "tool-pseudonym"),
    oauthState: new Sealer(keyring, "oauth-state"),
  };
  const queueSettings = {
    qstashUrl: settings.QSTASH_URL,
    qstashToken: settings.QSTASH_TOKEN,
    publicBaseUrl: settings.PUBLIC_BASE_URL,
    secrets,
  };
  const redis = new Redis({
    url: settings.UPSTASH_REDIS_REST_URL,
    token: settings.UPSTASH_REDIS_REST_TOKEN,
    // A lost response must not replay a non-idempotent script for long: fail fast, let the platform retry.
    retry: { retries: 2, backoff: (n) => 50 * 2 ** n },
  });
  const runtime: Runtime = {
    settings,
    platforms,
    ...createStores(redis, settings, {
      ttlSeconds: (key) => conversationTtlSeconds(settings, platforms, key),
      // Through the runtime: a test moves its clock after the stores are built (test/support/worker-clock.ts).
      now: () => runtime.now(),
      tokens: new Sealer(keyring, "stored-token"),
    }),
    queue: createJobQueue(queueSettings),
    schedules: createJobSchedules(queueSettings),
    llm: createLlm({
      apiKey: settings.OPENAI_API_KEY,
      baseUrl: settings.OPENAI_BASE_URL,
      model: settings.LLM_MODEL,
      judgeModel: settings.JUDGE_MODEL ?? settings.LLM_MODEL,
      visionModel: settings.VISION_MODEL ?? settings.LLM_MODEL,
      followupModel: settings.FOLLOWUP_MODEL ?? settings.LLM_MODEL,
      timeoutMs: settings.LLM_TIMEOUT_MS,
      maxReplyTokens: settings.MAX_REPLY_TOKENS,
    }),
    log: logger,
    secrets,
    tools: createToolbox(settings, env, logger),
    now: Date.now,
  };
  return runtime;
}

/** Once per isolate: each setting read as off or as its default, and each platform its settings turned off. */
function logSettingProblems(settings: Settings, platforms: ConfiguredPlatforms): void {
  for (const { name, problem } of settings.ignored) logger.error("setting_ignored", { setting: name, problem });
  for (const adapter of adapters) {
    const state = platforms.state(adapter.platform);
    if (state.status === "misconfigured")
      logger.error("platform_misconfigured", {
        platform: adapter.platform,
        settings: state.problems.map((p) => p.name),
        problems: state.problems.map((p) => `${p.name} ${p.problem}`),
      });
    if (state.status !== "misconfigured")
      for (const { name, problem } of state.ignored)
        logger.error("setting_ignored", { platform: adapter.platform, setting: name, problem });
  }
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
