/**
 * @module
 * The conversation store on Upstash Redis: every operation is one Lua script, one round trip.
 */
import type { Redis } from "@upstash/redis/cloudflare";
import * as z from "zod";
import type { ConversationKey, InboundMessage } from "../message.ts";
import { answerTraceSchema, MAX_ANSWER_TRACES, type AnswerTrace } from "./answer-trace.ts";
import { conversationKeys, replyKey, seenKey } from "../keys.ts";
import { CLAIM_REPLY, FOLD_SUMMARY, INGEST, MESSAGES_BELOW, RECORD_REPLY, RELEASE_CLAIM } from "./scripts.ts";
import { INACTIVE, newConversationState, parseScriptResult, storedMessages, toState, toStoredMessage } from "./stored-state.ts";
import type { ConversationState, StoredMessage } from "./types.ts";

export interface StoreOptions {
  prefix: string;
  /** Inactivity timeout of the place's conversations, in seconds. */
  ttlSeconds: (key: ConversationKey) => number;
  maxMessages: number;
}

export type RecordStatus = "idle" | "duplicate" | "started" | "recorded";

export interface RecordResult {
  status: RecordStatus;
  state: ConversationState;
  /** The author asked not to be messaged (read only when `optOutKey` was given). */
  optedOut: boolean;
}

/** An answer of several parts that failed after `partsPosted` of them went out. */
export interface AnswerDraft {
  text: string;
  partsPosted: number;
}

export type ClaimResult =
  | { status: "claimed"; state: ConversationState; draft?: AnswerDraft }
  | { status: "done" | "gone" | "covered" }
  | { status: "busy"; retryAfterSeconds: number };

/** How many recent messages the decider sees. */
export const DECIDER_WINDOW = 30;
/** Long enough for platform retries (Slack's last one comes after about 5 minutes) and QStash's dedupe window. */
const DEDUPE_TTL_SECONDS = 3_600;
/** A job that dies while posting holds its claim this long; QStash's second retry comes later than that. */
const CLAIM_TTL_SECONDS = 90;
/** A log over its cap drops this share of the cap at once, so a long conversation is trimmed every tenth message. */
const TRIM_SHARE = 0.1;

const draftSchema = z.object({ text: z.string(), partsPosted: z.number().int().min(0) });

/** How many messages stay after a trim: a batch below the cap, so that the next trims come a batch later. */
function keptAfterTrim(cap: number): number {
  return cap + 1 - Math.max(1, Math.floor(cap * TRIM_SHARE));
}

export class ConversationStore {
  private readonly redis: Redis;
  private readonly options: StoreOptions;
  private readonly ingestScript;
  private readonly claimScript;
  private readonly recordReplyScript;
  private readonly releaseScript;
  private readonly foldScript;

  constructor(redis: Redis, options: StoreOptions) {
    this.redis = redis;
    this.options = options;
    this.ingestScript = redis.createScript<unknown>(INGEST);
    this.claimScript = redis.createScript<unknown>(CLAIM_REPLY);
    this.recordReplyScript = redis.createScript<unknown>(RECORD_REPLY);
    this.releaseScript = redis.createScript<number>(RELEASE_CLAIM);
    this.foldScript = redis.createScript<number>(FOLD_SUMMARY);
  }

  /**
   * Drops a duplicate delivery, records the message when a conversation is active (or starts one when
   * `startIfIdle`), bumps the TTL of every key, and returns the state the decider needs: the recent messages end
   * with this one.
   */
  async record(msg: InboundMessage, opts: { startIfIdle: boolean; reset: boolean; optOutKey?: string }): Promise<RecordResult> {
    const keys = conversationKeys(this.options.prefix, msg.key);
    const stored = toStoredMessage(msg);
    const cap = this.options.maxMessages;
    const raw = await this.ingestScript.exec(
      [keys.state, keys.log, seenKey(this.options.prefix, msg.key, msg.id), ...(opts.optOutKey ? [opts.optOutKey] : [])],
      [
        JSON.stringify(stored),
        String(msg.ts),
        opts.startIfIdle ? "1" : "0",
        opts.reset ? "1" : "0",
        String(this.options.ttlSeconds(msg.key)),
        String(cap),
        newConversationState(msg),
        // The window holds the log's length member too.
        String(DECIDER_WINDOW),
        String(DEDUPE_TTL_SECONDS),
        String(keptAfterTrim(cap)),
      ],
    );
    const result = parseScriptResult(raw);
    const status = z.enum(["idle", "duplicate", "started", "recorded"]).parse(result.status);
    const optedOut = result.optedOut ?? false;
    if (status === "idle") return { status, state: INACTIVE, optedOut };
    // A redelivered message is in the window already: it goes last, where the decider looks for it.
    const before = storedMessages(result.recent ?? []).filter((m) => m.id !== msg.id);
    return { status, state: toState(result.state, [...before, stored]), optedOut };
  }

  /** Claims the answer to `triggerId`; see CLAIM_REPLY for the cases where there is nothing to do. */
  async claimReply(key: ConversationKey, conversationId: string, trigger: { id: string; ts: number }): Promise<ClaimResult> {
    const keys = conversationKeys(this.options.prefix, key);
    const raw = await this.claimScript.exec(
      [keys.state, keys.log, replyKey(this.options.prefix, key, trigger.id)],
      [conversationId, String(trigger.ts), String(CLAIM_TTL_SECONDS), trigger.id],
    );
    const result = parseScriptResult(raw);
    switch (result.status) {
      case "claimed":
        return {
          status: "claimed",
          state: toState(result.state, storedMessages(result.recent ?? [])),
          ...(result.draft ? { draft: draftSchema.parse(JSON.parse(result.draft)) } : {}),
        };
      case "busy":
        return { status: "busy", retryAfterSeconds: Math.max(1, result.retryAfter ?? CLAIM_TTL_SECONDS) };
      case "done":
      case "gone":
      case "covered":
        return { status: result.status };
      default:
        throw new Error(`unexpected claim status ${result.status}`);
    }
  }

  /** Records the bot's turn and marks the trigger answered. Returns false when the conversation is gone. */
  async recordReply(
    key: ConversationKey,
    args: {
      conversationId: string;
      triggerId: string;
      reply: StoredMessage;
      /** The newest message the answer saw. */
      answeredThrough: { id: string; ts: number };
      answered: string[];
      /** Kept for the admin view with the answer, in the same round trip. */
      trace?: AnswerTrace;
    },
  ): Promise<boolean> {
    const keys = conversationKeys(this.options.prefix, key);
    const cap = this.options.maxMessages;
    const recorded = await this.recordReplyScript.exec(
      [
        keys.state,
        keys.log,
        replyKey(this.options.prefix, key, args.triggerId),
        keys.answers,
      ],
      [
        args.conversationId,
        JSON.stringify(args.reply),
        String(args.reply.ts),
        String(args.answeredThrough.ts),
        JSON.stringify(args.answered),
        String(this.options.ttlSeconds(key)),
        String(cap),
        String(keptAfterTrim(cap)),
        String(DEDUPE_TTL_SECONDS),
        args.trace ? JSON.stringify(args.trace) : "",
        String(MAX_ANSWER_TRACES),
        args.answeredThrough.id,
      ],
    );
    return Number(recorded) === 1;
  }

  /** The job decided not to answer (judge NO, [SKIP]): a redelivery must not try again. */
  async markHandled(key: ConversationKey, triggerId: string): Promise<void> {
    await this.redis.set(replyKey(this.options.prefix, key, triggerId), "done", { ex: DEDUPE_TTL_SECONDS });
  }

  /** Gives the claim back after a failed attempt, so that QStash's retry can answer. */
  async releaseClaim(key: ConversationKey, triggerId: string, draft?: AnswerDraft): Promise<void> {
    await this.releaseScript.exec(
      [replyKey(this.options.prefix, key, triggerId)],
      [draft ? JSON.stringify(draft) : "", String(DEDUPE_TTL_SECONDS)],
    );
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
    const folded = await this.foldScript.exec(
      [keys.state, keys.log],
      [args.conversationId, args.previousSummary, args.summary, String(args.through)],
    );
    return Number(folded) === 1;
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
