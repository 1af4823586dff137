/**
 * @module
 * A confirm tool's call waiting for a person (docs/tools.md, "Actions that need approval"), one Redis hash under the
 * id of the bot's message that asks (lib/keys.ts `approvalKey`): its state (`pending`, then `approved`, `denied` or
 * `expired`, each reached once, by one script; `done` once its message is out), who may answer (the asker), the
 * call (tool, arguments, idempotency key), the sealed continuation job to publish on an answer, and once the call
 * began (`calling`) and ended (`result`). Every change is one script: a duplicate reaction, a double click or a
 * redelivered webhook finds the state decided and changes nothing. It may
 * be answered while its window key lives (`approvalWindowKey`, APPROVAL_TTL_MINUTES): Redis's clock says when it
 * expired, so that the Worker's clock cannot disagree with it.
 */
import type { Redis } from "@upstash/redis/cloudflare";
import { pendingCallSchema, type PendingCall } from "../conversation/draft.ts";
import { approvalAskedKey, approvalKey, approvalWindowKey } from "../keys.ts";
import type { ConversationKey } from "../message.ts";
import * as z from "../zod.ts";

/** `done`: its result or cancellation is out; nothing publishes its continuation again. */
const STATES = ["pending", "approved", "denied", "expired", "done"] as const;
export type ApprovalState = (typeof STATES)[number];

/**
 * Opens the approval once (a retried question finds it open). KEYS: the record, its window, and where it is
 * answered by a reply, the place's pending question (the latest wins). ARGV: 1 asker, 2 window s, 3 call JSON,
 * 4 sealed job JSON, 5 record ttl s, 6 the question's id.
 */
const OPEN = `#!lua flags=allow-key-locking
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'state', 'pending', 'asker', ARGV[1], 'call', ARGV[3], 'job', ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
redis.call('SET', KEYS[2], '1', 'EX', ARGV[2])
if KEYS[3] then redis.call('SET', KEYS[3], ARGV[6], 'EX', ARGV[2]) end
return 1
`;

/**
 * A person's ✅ or ❌. KEYS: the record, its window. ARGV: 1 who reacted, 2 the state it asks for. Only the asker
 * decides, and only a pending approval whose window is open; a decided one answers its state again (so that a
 * webhook retried after a lost publish publishes the same continuation once more). Returns '' when there is no
 * approval under that message, else {state, job, decided} (`decided`: this call decided it; `job` only for the asker).
 */
const DECIDE = `#!lua flags=allow-key-locking
local f = redis.call('HMGET', KEYS[1], 'state', 'asker', 'job')
if not f[1] then return '' end
if f[2] ~= ARGV[1] then return cjson.encode({state = f[1], decided = false}) end
if f[1] == 'pending' then
  if redis.call('EXISTS', KEYS[2]) == 0 then return cjson.encode({state = f[1], decided = false}) end
  redis.call('HSET', KEYS[1], 'state', ARGV[2])
  return cjson.encode({state = ARGV[2], decided = true, job = f[3]})
end
return cjson.encode({state = f[1], decided = false, job = f[3]})
`;

/**
 * The continuation's look: a pending approval whose window closed expires here. KEYS: the record, its window.
 * Returns '' when there is none, else {state, call, calling, result}.
 */
const SETTLE = `#!lua flags=allow-key-locking
local f = redis.call('HMGET', KEYS[1], 'state', 'call', 'calling', 'result')
if not f[1] then return '' end
local state = f[1]
if state == 'pending' and redis.call('EXISTS', KEYS[2]) == 0 then
  state = 'expired'
  redis.call('HSET', KEYS[1], 'state', state)
end
return cjson.encode({state = state, call = f[2], calling = f[3] or nil, result = f[4] or nil})
`;

const decidedSchema = z.object({ state: z.enum(STATES), decided: z.boolean(), job: z.optional(z.string()) });
const settledSchema = z.object({
  state: z.enum(STATES),
  call: z.string(),
  calling: z.optional(z.string()),
  result: z.optional(z.string()),
});

export interface Settled {
  state: ApprovalState;
  call: PendingCall;
  /** An attempt began the call (a later one that finds no result makes it again, with the same key). */
  calling: boolean;
  /** What the call gave (or the failure told), once it ended. */
  result?: string;
}

export class Approvals {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #open;
  readonly #decide;
  readonly #settle;

  constructor(redis: Redis, prefix: string) {
    this.#redis = redis;
    this.#prefix = prefix;
    this.#open = redis.createScript<number>(OPEN);
    this.#decide = redis.createScript<string>(DECIDE);
    this.#settle = redis.createScript<string>(SETTLE);
  }

  /** False when it was open already (an earlier attempt opened it). `byReply`: answered by a YES or NO in the place. */
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
  ): Promise<boolean> {
    const keys = [...this.#keys(place, questionId), ...(args.byReply ? [approvalAskedKey(this.#prefix, place)] : [])];
    const opened = await this.#open.exec(keys, [
      args.asker,
      String(args.windowSeconds),
      JSON.stringify(args.call),
      args.job,
      String(args.ttlSeconds),
      questionId,
    ]);
    return Number(opened) === 1;
  }

  /** The place's pending question answered by a reply (the latest asked), while its window lives; else null. */
  async askedByReply(place: ConversationKey): Promise<string | null> {
    const id = await this.#redis.get<string | number>(approvalAskedKey(this.#prefix, place));
    return id === null ? null : String(id);
  }

  /** null: no approval asked under that message. */
  async decide(
    place: ConversationKey,
    questionId: string,
    who: string,
    verdict: "approve" | "deny",
  ): Promise<z.output<typeof decidedSchema> | null> {
    const raw = await this.#decide.exec(this.#keys(place, questionId), [
      who,
      verdict === "approve" ? "approved" : "denied",
    ]);
    return raw ? decidedSchema.parse(typeof raw === "string" ? JSON.parse(raw) : raw) : null;
  }

  async settle(place: ConversationKey, questionId: string): Promise<Settled | null> {
    const raw = await this.#settle.exec(this.#keys(place, questionId), []);
    if (!raw) return null;
    const found = settledSchema.parse(typeof raw === "string" ? JSON.parse(raw) : raw);
    return {
      state: found.state,
      call: pendingCallSchema.parse(JSON.parse(found.call)),
      calling: found.calling !== undefined,
      ...(found.result !== undefined ? { result: found.result } : {}),
    };
  }

  /** Marks the approved call begun; false when an earlier attempt began it (then died, or it would have a result). */
  async beginCall(place: ConversationKey, questionId: string, now: number): Promise<boolean> {
    return (await this.#redis.hsetnx(approvalKey(this.#prefix, place, questionId), "calling", String(now))) === 1;
  }

  #keys(place: ConversationKey, questionId: string): string[] {
    return [approvalKey(this.#prefix, place, questionId), approvalWindowKey(this.#prefix, place, questionId)];
  }

  /**
   * Its result or cancellation is out: a later ✅ (a reaction taken back and given again, after the continuation's
   * own record is gone) publishes nothing, and a continuation that still comes posts nothing.
   */
  async finish(place: ConversationKey, questionId: string): Promise<void> {
    await this.#redis.hset(approvalKey(this.#prefix, place, questionId), { state: "done" });
  }

  /** What the approved call gave, kept for a retry that must post it. */
  async recordResult(place: ConversationKey, questionId: string, result: string): Promise<void> {
    await this.#redis.hset(approvalKey(this.#prefix, place, questionId), { result });
  }
}
