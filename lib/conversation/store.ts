/**
 * @module
 * The conversation store on Upstash Redis: every operation is one Lua script, one round trip. A job's answer to one
 * trigger (claim, draft, record) goes through `replies` (./reply-store.ts).
 */
import type { Redis } from "@upstash/redis/cloudflare";
import * as z from "../zod.ts";
import type { ConversationKey, InboundMessage, ConversationState, StoredMessage } from "../message.ts";
import { answerTraceSchema, type AnswerTrace } from "./answer-trace.ts";
import { asWhenWritten } from "./as-written.ts";
import { speakingOf, withTurnInProgress } from "./speaking.ts";
import {
  claimKey,
  conversationKeys,
  installationKey,
  keptKey,
  optOutKey,
  placeId,
  placeSettingsKey,
  replyKey,
  seenKey,
  spokeKey,
} from "../keys.ts";
import { BackfillStore } from "./backfill.ts";
import { parsePlaceSettings, type PlaceSettings } from "../places/settings.ts";
import { KeptMessages } from "./kept.ts";
import { ReplyStore } from "./reply-store.ts";
import { COUNTING_MEMBERS, FOLD_SUMMARY, INGEST, MESSAGES_BELOW, REMEMBER_PARENT } from "./scripts.ts";
import {
  DEDUPE_TTL_SECONDS,
  keptAfterTrim,
  MAX_CONVERSATION_SECONDS,
  spokeTtlSeconds,
  type StoreOptions,
} from "./store-options.ts";
import { INACTIVE, newConversationState, storedMessages, toState, toStoredMessage } from "./stored-state.ts";

export type { StoreOptions };

/** `unpublished`: a delivery of a message recorded earlier on which no job has started (./scripts.ts INGEST). */
/** `not_installed`: the tenant has no installation (`installedTenant`'s is missing); nothing recorded. */
export type RecordStatus = "idle" | "duplicate" | "unpublished" | "started" | "recorded" | "not_installed";

export interface RecordResult {
  status: RecordStatus;
  state: ConversationState;
  /** The author asked not to be messaged (read only with `optOuts`). */
  optedOut: boolean;
  /** The place's own settings (read only with `placeSettings`; else, and when none are set, the defaults: all off). */
  placeSettings: PlaceSettings;
}

/** A channel's last messages, kept where the platform cannot be asked for them (PlatformAdapter keepHistory). */
export interface KeptList {
  messages: number;
  ttlSeconds: number;
}

/** How many recent messages the decider sees. */
export const DECIDER_WINDOW = 30;

export class ConversationStore {
  /** A job's answer to one trigger: claim, draft, the bot's turn. */
  readonly replies: ReplyStore;
  /** Where the platform cannot be asked for a place's history, the messages the ingest script kept (./kept.ts). */
  readonly kept: KeptMessages;
  /** The place's earlier messages, merged into a conversation when it starts (./backfill.ts). */
  readonly backfill: BackfillStore;
  private readonly redis: Redis;
  private readonly options: StoreOptions;

  constructor(redis: Redis, options: StoreOptions) {
    this.redis = redis;
    this.options = options;
    this.replies = new ReplyStore(redis, options);
    this.kept = new KeptMessages(redis, options.prefix);
    this.backfill = new BackfillStore(redis, options);
  }

  /**
   * Drops a duplicate delivery, records the message when a conversation is active (or starts one when
   * `startIfIdle`), bumps the TTL of every key, and returns the state the decider needs: the recent messages end
   * with this one.
   */
  async record(
    msg: InboundMessage,
    opts: {
      startIfIdle: boolean;
      reset: boolean;
      /** The author may have opted out (lib/opt-outs.ts): read in the script, as `optedOut`. */
      optOuts?: boolean;
      /** Only with an installation of this tenant (of the message's platform) is anything recorded. */
      installedTenant?: string;
      kept?: KeptList;
      placeSettings?: boolean;
    },
  ): Promise<RecordResult> {
    const keys = conversationKeys(this.options.prefix, msg.key);
    const stored = toStoredMessage(msg);
    const cap = this.options.maxMessages;
    const { prefix } = this.options;
    const ttl = this.options.ttlSeconds(msg.key);
    const result = await INGEST.run(
      this.redis,
      {
        state: keys.state,
        log: keys.log,
        seen: seenKey(prefix, msg.key, msg.id),
        reply: replyKey(prefix, msg.key, msg.id),
        claim: claimKey(prefix, msg.key, msg.id),
        spoke: spokeKey(prefix, msg.key, msg.author.id),
        ...(opts.optOuts ? { optOut: optOutKey(prefix, msg.key, msg.author.id) } : {}),
        ...(opts.installedTenant
          ? { installation: installationKey(prefix, { platform: msg.key.platform, tenant: opts.installedTenant }) }
          : {}),
        ...(opts.kept ? { kept: keptKey(prefix, msg.key) } : {}),
        ...(opts.placeSettings ? { settings: placeSettingsKey(prefix, msg.key) } : {}),
      },
      {
        message: JSON.stringify(stored),
        ts: msg.ts,
        startIfIdle: opts.startIfIdle,
        reset: opts.reset,
        ttl,
        cap,
        newState: newConversationState(msg),
        // The window holds the log's counting members too; the message itself comes last.
        window: DECIDER_WINDOW - 1 + COUNTING_MEMBERS,
        dedupeTtl: DEDUPE_TTL_SECONDS,
        keptAfterTrim: keptAfterTrim(cap),
        place: placeId(msg.key),
        spokeTtl: spokeTtlSeconds(ttl),
        maxAgeMs: MAX_CONVERSATION_SECONDS * 1000,
        authorIdJson: `"authorId":${JSON.stringify(stored.authorId)}`,
        thread: msg.key.thread ?? "",
        lineStart: `${JSON.stringify({ id: stored.id }).slice(0, -1)},`,
        ...(opts.kept ? { kept: { messages: opts.kept.messages, ttl: opts.kept.ttlSeconds } } : {}),
      },
    );
    const status = z
      .enum(["idle", "duplicate", "unpublished", "started", "recorded", "not_installed"])
      .parse(result.status);
    const optedOut = result.optedOut ?? false;
    const placeSettings = parsePlaceSettings(result.settings);
    if (status === "idle" || status === "not_installed") return { status, state: INACTIVE, optedOut, placeSettings };
    // A redelivered message is in the window already: it goes last, where the decider looks for it.
    const before = storedMessages(result.recent ?? []).filter((m) => m.id !== msg.id);
    // The bot's turn still being written counts for the decider (./speaking.ts).
    const state = withTurnInProgress(toState(result.state, [...before, stored]), speakingOf(result.state), stored);
    return { status, state: asWhenWritten(state, stored), optedOut, placeSettings };
  }

  /**
   * Replaces the running summary and drops the messages it now covers (ts <= `through`). False when the
   * conversation is gone or its summary changed since `previousSummary` was read.
   */
  async foldSummary(
    key: ConversationKey,
    args: { conversationId: string; previousSummary: string; summary: string; through: number },
  ): Promise<boolean> {
    const keys = conversationKeys(this.options.prefix, key);
    return FOLD_SUMMARY.run(
      this.redis,
      { state: keys.state, log: keys.log },
      {
        conversationId: args.conversationId,
        previous: args.previousSummary,
        summary: args.summary,
        through: args.through,
      },
    );
  }

  /**
   * Keeps, with the conversation `conversationId`, the parent of `of` as a job found it (`false`: none); the place
   * goes into the parent's author's index, whose "forget me" then reaches it.
   */
  async rememberParent(
    key: ConversationKey,
    conversationId: string,
    of: string,
    parent: StoredMessage | false,
  ): Promise<void> {
    const { prefix } = this.options;
    await REMEMBER_PARENT.run(
      this.redis,
      {
        state: conversationKeys(prefix, key).state,
        ...(parent ? { spoke: spokeKey(prefix, key, parent.authorId) } : {}),
      },
      {
        conversationId,
        of,
        parent: JSON.stringify(parent),
        place: placeId(key),
        spokeTtl: spokeTtlSeconds(this.options.ttlSeconds(key)),
        now: Date.now(),
      },
    );
  }

  /** The whole conversation (the memory job, the admin view, tests); null when none is active. */
  async load(key: ConversationKey): Promise<ConversationState | null> {
    const keys = conversationKeys(this.options.prefix, key);
    const p = this.redis.pipeline();
    p.get(keys.state);
    p.zrange(keys.log, "-inf", MESSAGES_BELOW, { byScore: true });
    const [state, messages] = (await p.exec()) as [unknown, unknown[]];
    return state === null ? null : toState(state, storedMessages(messages));
  }

  /** Whether Redis answers (GET /health). */
  async ping(): Promise<boolean> {
    return (await this.redis.ping()) === "PONG";
  }

  /** Seconds before the conversation expires unless something happens in it (Redis's TTL: -2 when it is gone). */
  async secondsLeft(key: ConversationKey): Promise<number> {
    return this.redis.ttl(conversationKeys(this.options.prefix, key).state);
  }

  /** The traces of the bot's recent answers in the conversation `conversationId`, newest first. */
  async recentAnswers(key: ConversationKey, conversationId: string): Promise<AnswerTrace[]> {
    const raw = await this.redis.lrange<unknown>(conversationKeys(this.options.prefix, key).answers, 0, -1);
    return raw
      .map((entry) => answerTraceSchema.safeParse(typeof entry === "string" ? JSON.parse(entry) : entry))
      .flatMap((parsed) => (parsed.success && parsed.data.conversationId === conversationId ? [parsed.data] : []));
  }
}
