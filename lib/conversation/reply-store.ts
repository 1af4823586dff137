/**
 * @module
 * A job's answer to one trigger in Redis (./claim-scripts.ts): claim it for one attempt, keep the draft of what is
 * being posted across attempts, record the bot's turn, or mark the trigger handled. One round trip each.
 */
import type { Redis } from "@upstash/redis/cloudflare";
import * as z from "../zod.ts";
import {
  VISIBILITIES,
  type ConversationKey,
  type ConversationState,
  type StoredMessage,
  type Visibility,
} from "../message.ts";
import { MAX_ANSWER_TRACES, type AnswerTrace } from "./answer-trace.ts";
import { claimKey, conversationKeys, optOutKey, replyKey, seenKey, signKey, stopKey, visibilityKey } from "../keys.ts";
import { CLAIM_REPLY, RECORD_REPLY, RELEASE_CLAIM, RENEW_CLAIM } from "./claim-scripts.ts";
import { parseDraft, type Draft } from "./draft.ts";
import { claimFollowUp, type FollowUpClaim } from "./follow-up-claim.ts";
import { CLAIM_TTL_SECONDS, DEDUPE_TTL_SECONDS, keptAfterTrim, type StoreOptions } from "./store-options.ts";
import { SAVE_OPENING_DRAFT } from "./speaking.ts";
import { storedMessages, toState } from "./stored-state.ts";

/** Past QStash's last retry (about 33 minutes after the first attempt), so that the answer's job finds it. */
const SIGN_TTL_SECONDS = 7_200;
/** A Stop outlives any stream (Slack ends one after about 5 minutes) and the retries that would finish it. */
const STOP_TTL_SECONDS = 3_600;

export type ClaimResult =
  | {
      status: "claimed";
      /** Null when the conversation is `gone`: expired, or reset by a reset word. */
      state: ConversationState | null;
      gone?: "expired" | "reset";
      /** What earlier attempts left: the answer being posted, if one was. */
      draft: Draft;
      /** No earlier attempt got past the checks that count once. */
      first: boolean;
      /** How many messages the conversation had recorded when this attempt read it. */
      arrivals: number;
      /** The webhook put the working sign up: the job only takes it down. */
      signUp: boolean;
      /** Who can read the place, as cached (lib/jobs/visibility.ts); absent when nothing is cached. */
      visibility?: Visibility;
      /** The person asked not to be messaged (lib/opt-outs.ts): nothing is posted to them. */
      optedOut: boolean;
    }
  | { status: "done" | "covered" }
  | { status: "busy"; retryAfterSeconds: number };

export class ReplyStore {
  private readonly redis: Redis;
  private readonly options: StoreOptions;

  constructor(redis: Redis, options: StoreOptions) {
    this.redis = redis;
    this.options = options;
  }

  /** Claims the answer to `trigger` for the attempt `token`; see CLAIM_REPLY for when there is nothing to do. */
  async claimReply(
    key: ConversationKey,
    conversationId: string,
    trigger: { id: string; ts: number; authorId: string },
    token: string,
  ): Promise<ClaimResult> {
    const { prefix } = this.options;
    const keys = conversationKeys(prefix, key);
    const result = await CLAIM_REPLY.run(
      this.redis,
      {
        state: keys.state,
        log: keys.log,
        reply: replyKey(prefix, key, trigger.id),
        claim: claimKey(prefix, key, trigger.id),
        seen: seenKey(prefix, key, trigger.id),
        sign: signKey(prefix, key, trigger.id),
        visibility: visibilityKey(prefix, key),
        optOut: optOutKey(prefix, key, trigger.authorId),
      },
      { conversationId, ts: trigger.ts, ttl: CLAIM_TTL_SECONDS, id: trigger.id, authorId: trigger.authorId, token },
    );
    switch (result.status) {
      case "claimed": {
        const gone = z.optional(z.enum(["expired", "reset"])).parse(result.gone);
        return {
          status: "claimed",
          state: gone ? null : toState(result.state, storedMessages(result.recent ?? [])),
          ...(gone ? { gone } : {}),
          draft: parseDraft(result.draft ?? ""),
          first: result.first ?? true,
          arrivals: result.arrivals ?? 0,
          signUp: result.signUp ?? false,
          ...visibilityOf(result.visibility),
          optedOut: result.optedOut ?? false,
        };
      }
      case "busy":
        return { status: "busy", retryAfterSeconds: Math.max(1, result.retryAfter ?? CLAIM_TTL_SECONDS) };
      case "done":
      case "covered":
        return { status: result.status };
      default:
        throw new Error(`unexpected claim status ${result.status}`);
    }
  }

  /**
   * Claims a message that follows an answer rather than answering a person's (an approved call's result): the
   * same claim and reply record, without the conversation (./follow-up-claim.ts).
   */
  claimFollowUp(
    key: ConversationKey,
    trigger: { id: string; authorId: string },
    token: string,
  ): Promise<FollowUpClaim> {
    return claimFollowUp(this.redis, this.options.prefix, key, trigger, token);
  }

  /** Whether a job began on `triggerId`'s answer (its reply record exists: a draft, or done). */
  async hasRecord(key: ConversationKey, triggerId: string): Promise<boolean> {
    return (await this.redis.exists(replyKey(this.options.prefix, key, triggerId))) === 1;
  }

  /** Keeps the draft of the answer being posted (one command: the attempt holds the claim). */
  async saveDraft(key: ConversationKey, triggerId: string, draft: Draft): Promise<void> {
    await this.redis.set(replyKey(this.options.prefix, key, triggerId), JSON.stringify(draft), {
      ex: DEDUPE_TTL_SECONDS,
    });
  }

  /** Keeps the draft before a stream opens, and the bot's turn so far in the conversation's state (./speaking.ts). */
  async saveOpeningDraft(
    key: ConversationKey,
    conversationId: string,
    triggerId: string,
    draft: Draft,
    turn: StoredMessage,
  ): Promise<void> {
    await SAVE_OPENING_DRAFT.run(
      this.redis,
      { reply: replyKey(this.options.prefix, key, triggerId), state: conversationKeys(this.options.prefix, key).state },
      { draft: JSON.stringify(draft), ttl: DEDUPE_TTL_SECONDS, conversationId, turn: JSON.stringify(turn) },
    );
  }

  /** The mark that the webhook's working sign is up (set with the sign's budget): the answering job takes it down. */
  signMark(key: ConversationKey, triggerId: string): { key: string; ttlSeconds: number } {
    return { key: signKey(this.options.prefix, key, triggerId), ttlSeconds: SIGN_TTL_SECONDS };
  }

  /** The mark a Stop on the trigger's answer sets, read by the job in round trips it makes anyway. */
  stopMark(key: ConversationKey, triggerId: string): string {
    return stopKey(this.options.prefix, key, triggerId);
  }

  /** A Stop pressed on the trigger's answer by `by` (a name); false when one was pressed before. */
  async stop(key: ConversationKey, triggerId: string, by: string): Promise<boolean> {
    return (await this.redis.set(this.stopMark(key, triggerId), by, { nx: true, ex: STOP_TTL_SECONDS })) === "OK";
  }

  /** The webhook's working sign was taken down by a failed attempt: its retries leave it alone. */
  async forgetSign(key: ConversationKey, triggerId: string): Promise<void> {
    await this.redis.del(signKey(this.options.prefix, key, triggerId));
  }

  /** Whether the webhook's working sign is up (the job's claim read it too, but may have come first). */
  async signIsUp(key: ConversationKey, triggerId: string): Promise<boolean> {
    return (await this.redis.exists(signKey(this.options.prefix, key, triggerId))) === 1;
  }

  /** Extends the attempt's claim; false when another attempt holds it by now. */
  async renewClaim(key: ConversationKey, triggerId: string, token: string): Promise<boolean> {
    return RENEW_CLAIM.run(
      this.redis,
      { claim: claimKey(this.options.prefix, key, triggerId) },
      { token, ttl: CLAIM_TTL_SECONDS },
    );
  }

  /** Records the bot's turn and marks the trigger answered. Returns false when the conversation is gone. */
  async recordReply(
    key: ConversationKey,
    args: {
      conversationId: string;
      triggerId: string;
      reply: StoredMessage;
      /** The message the answer was for. */
      answeredThrough: { id: string; ts: number };
      answered: string[];
      /** The log's arrival count when the answer read the conversation (ClaimResult `arrivals`). */
      arrivals: number;
      /** Kept for the admin view with the answer, in the same round trip. */
      trace?: AnswerTrace;
    },
  ): Promise<boolean> {
    const keys = conversationKeys(this.options.prefix, key);
    const cap = this.options.maxMessages;
    return RECORD_REPLY.run(
      this.redis,
      {
        state: keys.state,
        log: keys.log,
        reply: replyKey(this.options.prefix, key, args.triggerId),
        answers: keys.answers,
      },
      {
        conversationId: args.conversationId,
        reply: JSON.stringify(args.reply),
        ts: args.reply.ts,
        through: args.answeredThrough.ts,
        answered: args.answered,
        ttl: this.options.ttlSeconds(key),
        cap,
        keptAfterTrim: keptAfterTrim(cap),
        doneTtl: DEDUPE_TTL_SECONDS,
        ...(args.trace ? { trace: JSON.stringify(args.trace) } : {}),
        traces: MAX_ANSWER_TRACES,
        id: args.answeredThrough.id,
        arrivals: args.arrivals,
      },
    );
  }

  /** The job ended without an answer to record (judge NO, [SKIP], a notice): a redelivery must not try again. */
  async markHandled(key: ConversationKey, triggerId: string): Promise<void> {
    await this.redis.set(replyKey(this.options.prefix, key, triggerId), "done", { ex: DEDUPE_TTL_SECONDS });
  }

  /** Gives the claim back after a failed attempt, keeping `draft` (what it got out) for QStash's retry. */
  async releaseClaim(key: ConversationKey, triggerId: string, token: string, draft: Draft): Promise<void> {
    await RELEASE_CLAIM.run(
      this.redis,
      { reply: replyKey(this.options.prefix, key, triggerId), claim: claimKey(this.options.prefix, key, triggerId) },
      { token, draft: JSON.stringify(draft), ttl: DEDUPE_TTL_SECONDS },
    );
  }
}

/** The cached visibility a claim read, when it is one (lib/jobs/visibility.ts writes it). */
function visibilityOf(cached: string | undefined): { visibility?: Visibility } {
  const visibility = VISIBILITIES.find((v) => v === cached);
  return visibility ? { visibility } : {};
}
