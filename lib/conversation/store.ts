/**
 * @module
 * The conversation store on Upstash Redis: every operation is one Lua script, one round trip.
 */
import type { Redis } from "@upstash/redis/cloudflare";
import * as z from "zod";
import type { ConversationKey, InboundMessage } from "../message.ts";
import { answerTraceSchema, MAX_ANSWER_TRACES, type AnswerTrace } from "./answer-trace.ts";
import { conversationKeys, replyKey, seenKey } from "../keys.ts";
import { CLAIM_REPLY, FOLD_SUMMARY, INGEST, RECORD_REPLY, RELEASE_CLAIM } from "./scripts.ts";
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

const storedMessageSchema = z.object({
  id: z.string(),
  role: z.enum(["user", "assistant"]),
  authorId: z.string(),
  authorName: z.string(),
  text: z.string(),
  ts: z.number(),
  mentions: z.array(z.string()).optional(),
  replyToAuthorId: z.string().optional(),
  noReply: z.boolean().optional(),
});

/** cjson turns an empty Lua table into `{}`; the REST client may already have parsed the JSON string. */
const luaList = z.union([z.array(z.string()), z.object({}).strict().transform(() => [] as string[])]);
const scriptResult = z.object({
  status: z.string(),
  meta: luaList.optional(),
  recent: luaList.optional(),
  retryAfter: z.number().optional(),
  draft: z.string().optional(),
  optedOut: z.boolean().optional(),
});

const draftSchema = z.object({ text: z.string(), partsPosted: z.number().int().min(0) });

function parseScriptResult(raw: unknown): z.output<typeof scriptResult> {
  return scriptResult.parse(typeof raw === "string" ? JSON.parse(raw) : raw);
}

function toState(meta: string[], recent: string[]): ConversationState {
  const fields = new Map<string, string>();
  for (let i = 0; i + 1 < meta.length; i += 2) fields.set(meta[i]!, meta[i + 1]!);
  const num = (name: string) => Number(fields.get(name) ?? 0);
  const lastBotReplyTo = fields.get("lastBotReplyTo");
  return {
    active: fields.has("id"),
    id: fields.get("id") ?? "",
    startedAt: num("startedAt"),
    lastActivityAt: num("lastActivityAt"),
    lastBotReplyAt: fields.has("lastBotReplyAt") ? num("lastBotReplyAt") : undefined,
    lastBotReplyTo: lastBotReplyTo ? z.array(z.string()).parse(JSON.parse(lastBotReplyTo)) : [],
    answeredThrough: num("answeredThrough"),
    summary: fields.get("summary") || undefined,
    recent: recent.map((m) => storedMessageSchema.parse(JSON.parse(m))),
  };
}

export function toStoredMessage(msg: InboundMessage): StoredMessage {
  const stored: StoredMessage = {
    id: msg.id,
    role: "user",
    authorId: msg.author.id,
    authorName: msg.author.name,
    text: msg.text,
    ts: msg.ts,
  };
  if (msg.mentions.length > 0) stored.mentions = msg.mentions;
  if (msg.replyToAuthorId) stored.replyToAuthorId = msg.replyToAuthorId;
  if (msg.noReply) stored.noReply = true;
  return stored;
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
   * `startIfIdle`), bumps the TTL of every key, and returns the state the decider needs.
   */
  async record(
    msg: InboundMessage,
    opts: { startIfIdle: boolean; reset: boolean; now: number; optOutKey?: string },
  ): Promise<RecordResult> {
    const keys = conversationKeys(this.options.prefix, msg.key);
    const raw = await this.ingestScript.exec(
      [keys.meta, keys.log, seenKey(this.options.prefix, msg.key, msg.id), ...(opts.optOutKey ? [opts.optOutKey] : [])],
      [
        JSON.stringify(toStoredMessage(msg)),
        String(msg.ts),
        opts.startIfIdle ? "1" : "0",
        opts.reset ? "1" : "0",
        String(this.options.ttlSeconds(msg.key)),
        String(this.options.maxMessages),
        `${msg.ts.toString(36)}-${msg.id}`,
        String(DECIDER_WINDOW),
        String(DEDUPE_TTL_SECONDS),
        String(opts.now),
      ],
    );
    const result = parseScriptResult(raw);
    const status = z.enum(["idle", "duplicate", "started", "recorded"]).parse(result.status);
    return { status, state: toState(result.meta ?? [], result.recent ?? []), optedOut: result.optedOut ?? false };
  }

  /** Claims the answer to `triggerId`; see CLAIM_REPLY for the cases where there is nothing to do. */
  async claimReply(key: ConversationKey, conversationId: string, trigger: { id: string; ts: number }): Promise<ClaimResult> {
    const keys = conversationKeys(this.options.prefix, key);
    const raw = await this.claimScript.exec(
      [keys.meta, keys.log, replyKey(this.options.prefix, key, trigger.id)],
      [conversationId, String(trigger.ts), String(CLAIM_TTL_SECONDS), trigger.id],
    );
    const result = parseScriptResult(raw);
    switch (result.status) {
      case "claimed":
        return {
          status: "claimed",
          state: toState(result.meta ?? [], result.recent ?? []),
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
    const recorded = await this.recordReplyScript.exec(
      [
        keys.meta,
        keys.log,
        replyKey(this.options.prefix, key, args.triggerId),
        seenKey(this.options.prefix, key, args.reply.id),
        keys.answers,
      ],
      [
        args.conversationId,
        JSON.stringify(args.reply),
        String(args.reply.ts),
        String(args.answeredThrough.ts),
        JSON.stringify(args.answered),
        String(this.options.ttlSeconds(key)),
        String(this.options.maxMessages),
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
      [keys.meta, keys.log],
      [args.conversationId, args.previousSummary, args.summary, String(args.through)],
    );
    return Number(folded) === 1;
  }

  /** The whole conversation, for the admin view and tests; null when none is active. */
  async load(key: ConversationKey): Promise<(ConversationState & { ttlSeconds: number }) | null> {
    const keys = conversationKeys(this.options.prefix, key);
    const p = this.redis.pipeline();
    p.hgetall(keys.meta);
    p.zrange(keys.log, 0, -1);
    p.ttl(keys.meta);
    const [meta, recent, ttl] = (await p.exec()) as [Record<string, unknown> | null, unknown[], number];
    if (!meta) return null;
    const flat = Object.entries(meta).flatMap(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]);
    const messages = recent.map((m) => (typeof m === "string" ? m : JSON.stringify(m)));
    return { ...toState(flat, messages), ttlSeconds: ttl };
  }

  /** The traces of the bot's recent answers in the conversation `conversationId`, newest first. */
  async recentAnswers(key: ConversationKey, conversationId: string): Promise<AnswerTrace[]> {
    const raw = await this.redis.lrange<unknown>(conversationKeys(this.options.prefix, key).answers, 0, -1);
    return raw
      .map((entry) => answerTraceSchema.safeParse(typeof entry === "string" ? JSON.parse(entry) : entry))
      .flatMap((parsed) => (parsed.success && parsed.data.conversationId === conversationId ? [parsed.data] : []));
  }
}
