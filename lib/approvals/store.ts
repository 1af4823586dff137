/**
 * @module
 * A confirm tool's call waiting for a person (docs/tools.md, "Actions that need approval"), kept in its record
 * (./record.ts): who may answer (the asker), the call (tool, arguments, idempotency key), the sealed continuation job
 * to publish on an answer, and once the call began (`calling`) and ended (`result`). Opening and answering go through
 * ./answer-scripts.ts, the continuation's look through ./settle-script.ts.
 */
import { pendingCallSchema, type PendingCall } from "../conversation/draft.ts";
import { approvalAskedKey, approvalEarlyKey, approvalKey, approvalWindowKey } from "../keys.ts";
import type { ConversationKey } from "../message.ts";
import { RedisStore } from "../redis-store.ts";
import { CARRY_EARLY, CLOSE, DECIDE, OPEN } from "./answer-scripts.ts";
import type { ApprovalState } from "./record.ts";
import { SETTLE } from "./settle-script.ts";

/**
 * A ✅ or ❌ as the record took it: the state now, whether this answer decided it, the continuation (the asker's), or
 * for anyone else's answer who the asker is.
 */
export interface Decided {
  state: ApprovalState;
  decided: boolean;
  job?: string | undefined;
  asker?: string | undefined;
}

export interface Settled {
  state: ApprovalState;
  call: PendingCall;
  /** An attempt began the call (a later one that finds no result makes it again, with the same key). */
  calling: boolean;
  /** What the call gave (or the failure told), once it ended. */
  result?: string;
}

export class Approvals extends RedisStore {
  /**
   * `opened` false when it was open already (an earlier attempt opened it); its `state`, decided already when the
   * asker answered before it opened. `byReply`: answered by a YES or NO in the place.
   */
  async open(
    place: ConversationKey,
    questionId: string,
    args: {
      asker: string;
      windowSeconds: number;
      call: PendingCall;
      job: string;
      ttlSeconds: number;
      byReply: boolean;
    },
  ): Promise<{ opened: boolean; state: ApprovalState }> {
    const asked = args.byReply ? { asked: approvalAskedKey(this.prefix, place) } : {};
    return OPEN.run(
      this.redis,
      { ...this.#keys(place, questionId), early: approvalEarlyKey(this.prefix, place, questionId), ...asked },
      {
        asker: args.asker,
        window: args.windowSeconds,
        call: JSON.stringify(args.call),
        job: args.job,
        ttl: args.ttlSeconds,
        question: questionId,
      },
    );
  }

  /**
   * The question just posted is the one a reply answers (before its approval opens, so that a YES that comes in
   * between waits for the open under it: `decide`'s `kept`); the latest wins, as `open`'s.
   */
  async nameAsked(place: ConversationKey, questionId: string, windowSeconds: number): Promise<void> {
    await this.redis.set(approvalAskedKey(this.prefix, place), questionId, { ex: windowSeconds });
  }

  /** The answers kept under `from`, the name of a question whose send was unconfirmed, go to its id `to`. */
  async carryEarly(place: ConversationKey, from: string, to: string, windowSeconds: number): Promise<void> {
    const keys = { from: approvalEarlyKey(this.prefix, place, from), to: approvalEarlyKey(this.prefix, place, to) };
    await CARRY_EARLY.run(this.redis, keys, { window: windowSeconds });
  }

  /** The place's pending question answered by a reply (the latest asked), while its window lives; else null. */
  async askedByReply(place: ConversationKey): Promise<string | null> {
    const id = await this.redis.get<string | number>(approvalAskedKey(this.prefix, place));
    return id === null ? null : String(id);
  }

  /**
   * Closes the place's pending question (but not one of `except`: the question being posted, by its id or its name
   * while unconfirmed) when something else was said since it was asked; its sealed continuation job when this call
   * closed it, else null.
   */
  async closeAsked(place: ConversationKey, except: readonly string[] = []): Promise<string | null> {
    const questionId = await this.askedByReply(place);
    if (questionId === null || except.includes(questionId)) return null;
    const job = await CLOSE.run(
      this.redis,
      { ...this.#keys(place, questionId), asked: approvalAskedKey(this.prefix, place) },
      { question: questionId },
    );
    return job === "" ? null : job.job;
  }

  /**
   * No approval is open under that message: with `keepEarly` the answer is `kept` there `windowSeconds` for one to
   * open (its question may be out, its record not yet); without, it is `absent`.
   */
  async decide(
    place: ConversationKey,
    questionId: string,
    answer: { who: string; verdict: "approve" | "deny"; windowSeconds: number; keepEarly: boolean },
  ): Promise<Decided | "kept" | "absent"> {
    const state = answer.verdict === "approve" ? "approved" : "denied";
    const keys = { ...this.#keys(place, questionId), early: approvalEarlyKey(this.prefix, place, questionId) };
    return DECIDE.run(this.redis, keys, {
      who: answer.who,
      state,
      window: answer.windowSeconds,
      keep: answer.keepEarly,
    });
  }

  async settle(place: ConversationKey, questionId: string): Promise<Settled | null> {
    const found = await SETTLE.run(this.redis, this.#keys(place, questionId), {});
    if (found === "") return null;
    return {
      state: found.state,
      call: pendingCallSchema.parse(JSON.parse(found.call)),
      calling: found.calling !== undefined,
      ...(found.result !== undefined ? { result: found.result } : {}),
    };
  }

  /** Marks the approved call begun; false when an earlier attempt began it (then died, or it would have a result). */
  async beginCall(place: ConversationKey, questionId: string, now: number): Promise<boolean> {
    return (await this.redis.hsetnx(approvalKey(this.prefix, place, questionId), "calling", String(now))) === 1;
  }

  #keys(place: ConversationKey, questionId: string): { record: string; window: string } {
    return {
      record: approvalKey(this.prefix, place, questionId),
      window: approvalWindowKey(this.prefix, place, questionId),
    };
  }

  /**
   * Its result or cancellation is out: a later ✅ (a reaction taken back and given again, after the continuation's
   * own record is gone) publishes nothing, and a continuation that still comes posts nothing.
   */
  async finish(place: ConversationKey, questionId: string): Promise<void> {
    await this.redis.hset(approvalKey(this.prefix, place, questionId), { state: "done" });
  }

  /** What the approved call gave, kept for a retry that must post it. */
  async recordResult(place: ConversationKey, questionId: string, result: string): Promise<void> {
    await this.redis.hset(approvalKey(this.prefix, place, questionId), { result });
  }
}
