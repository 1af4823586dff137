/**
 * @module
 * A confirm tool's call waiting for a person (docs/tools.md, "Actions that need approval"), one Redis hash under the
 * id of the bot's message that asks (lib/keys.ts `approvalKey`): its state (`pending`, then `approved`, `denied`,
 * `expired` or, answered by a reply, `closed`, each reached once, by one script; `done` once its message is out),
 * who may answer (the asker), the call (tool, arguments, idempotency key), the sealed continuation job to publish on
 * an answer, and once the call began (`calling`) and ended (`result`). Every change is one script: a duplicate
 * reaction, a double click or a redelivered webhook finds the state decided and changes nothing. It may be answered
 * while its window key lives (`approvalWindowKey`, APPROVAL_TTL_MINUTES): Redis's clock says when it
 * expired, so that the Worker's clock cannot disagree with it.
 */
import { pendingCallSchema, type PendingCall } from "../conversation/draft.ts";
import { approvalAskedKey, approvalKey, approvalWindowKey } from "../keys.ts";
import type { ConversationKey } from "../message.ts";
import { defineScript, luaFlag } from "../redis-script.ts";
import { RedisStore } from "../redis-store.ts";
import * as z from "../zod.ts";

/** `done`: its result or cancellation is out; nothing publishes its continuation again. */
/** `closed`: on SMS, a message from either side came before any YES or NO (`closeAsked`). */
const STATES = ["pending", "approved", "denied", "expired", "closed", "done"] as const;
type ApprovalState = (typeof STATES)[number];

/** Every script's keys: the approval's `record` and its `window`. */
const RECORD_KEYS = { record: "key", window: "key" } as const;

/**
 * Opens the approval once (a retried question finds it open). Keys: the record, its window, and where it is
 * answered by a reply, the place's pending question (`asked`: the latest wins). Arguments: the `asker`, the
 * `window`'s life (s), the `call` (JSON), the sealed `job` (JSON), the record's `ttl` (s), the `question`'s id.
 */
const OPEN = defineScript({
  keys: { ...RECORD_KEYS, asked: "optional" },
  args: z.object({
    asker: z.string(),
    window: z.number(),
    call: z.string(),
    job: z.string(),
    ttl: z.number(),
    question: z.string(),
  }),
  result: luaFlag,
  lua: `
if redis.call('EXISTS', K.record) == 1 then return 0 end
redis.call('HSET', K.record, 'state', 'pending', 'asker', A.asker, 'call', A.call, 'job', A.job)
redis.call('EXPIRE', K.record, A.ttl)
redis.call('SET', K.window, '1', 'EX', A.window)
if K.asked then redis.call('SET', K.asked, A.question, 'EX', A.window) end
return 1
`,
});

/**
 * A person's ✅ or ❌. Arguments: `who` reacted, the `state` it asks for. Only the asker decides, and only a pending
 * approval whose window is open; a decided one answers its state again (so that a webhook retried after a lost
 * publish publishes the same continuation once more); a pending one past its window answers `expired` (the
 * continuation's own look records it). Returns '' when there is no approval under that message, else {state, job,
 * decided, asker} (`decided`: this call decided it; `job` only for the asker, `asker` only for anyone else).
 */
export const DECIDE = defineScript({
  keys: RECORD_KEYS,
  args: z.object({ who: z.string(), state: z.enum(["approved", "denied"]) }),
  result: z.union([
    z.literal(""),
    z.object({
      state: z.enum(STATES),
      decided: z.boolean(),
      job: z.optional(z.string()),
      asker: z.optional(z.string()),
    }),
  ]),
  lua: `
local f = redis.call('HMGET', K.record, 'state', 'asker', 'job')
if not f[1] then return '' end
if f[2] ~= A.who then return cjson.encode({state = f[1], decided = false, asker = f[2]}) end
if f[1] == 'pending' then
  if redis.call('EXISTS', K.window) == 0 then return cjson.encode({state = 'expired', decided = false}) end
  redis.call('HSET', K.record, 'state', A.state)
  return cjson.encode({state = A.state, decided = true, job = f[3]})
end
return cjson.encode({state = f[1], decided = false, job = f[3]})
`,
});

/**
 * The place's pending question is past answering by a reply: something else was said since. Keys: the record and
 * window of the `question` the place's `asked` key named. The asked key goes (if it still names it); a pending
 * question still open is `closed`. Returns {job} (its sealed continuation) when this call closed it, else ''.
 */
const CLOSE = defineScript({
  keys: { ...RECORD_KEYS, asked: "key" },
  args: z.object({ question: z.string() }),
  result: z.union([z.literal(""), z.object({ job: z.string() })]),
  lua: `
if redis.call('GET', K.asked) == A.question then redis.call('DEL', K.asked) end
local f = redis.call('HMGET', K.record, 'state', 'job')
if f[1] ~= 'pending' or redis.call('EXISTS', K.window) == 0 then return '' end
redis.call('HSET', K.record, 'state', 'closed')
return cjson.encode({job = f[2]})
`,
});

/**
 * The continuation's look: a pending approval whose window closed expires here. Returns '' when there is none,
 * else {state, call, calling, result}.
 */
const SETTLE = defineScript({
  keys: RECORD_KEYS,
  args: z.object({}),
  result: z.union([
    z.literal(""),
    z.object({
      state: z.enum(STATES),
      call: z.string(),
      calling: z.optional(z.string()),
      result: z.optional(z.string()),
    }),
  ]),
  lua: `
local f = redis.call('HMGET', K.record, 'state', 'call', 'calling', 'result')
if not f[1] then return '' end
local state = f[1]
if state == 'pending' and redis.call('EXISTS', K.window) == 0 then
  state = 'expired'
  redis.call('HSET', K.record, 'state', state)
end
return cjson.encode({state = state, call = f[2], calling = f[3] or nil, result = f[4] or nil})
`,
});

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
    const asked = args.byReply ? { asked: approvalAskedKey(this.prefix, place) } : {};
    return OPEN.run(
      this.redis,
      { ...this.#keys(place, questionId), ...asked },
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

  /** The place's pending question answered by a reply (the latest asked), while its window lives; else null. */
  async askedByReply(place: ConversationKey): Promise<string | null> {
    const id = await this.redis.get<string | number>(approvalAskedKey(this.prefix, place));
    return id === null ? null : String(id);
  }

  /**
   * Closes the place's pending question (but not `except`: the question being posted) when something else was said
   * since it was asked; its sealed continuation job when this call closed it, else null.
   */
  async closeAsked(place: ConversationKey, except?: string): Promise<string | null> {
    const questionId = await this.askedByReply(place);
    if (questionId === null || questionId === except) return null;
    const job = await CLOSE.run(
      this.redis,
      { ...this.#keys(place, questionId), asked: approvalAskedKey(this.prefix, place) },
      { question: questionId },
    );
    return job === "" ? null : job.job;
  }

  /** null: no approval asked under that message. */
  async decide(
    place: ConversationKey,
    questionId: string,
    who: string,
    verdict: "approve" | "deny",
  ): Promise<Decided | null> {
    const state = verdict === "approve" ? "approved" : "denied";
    const decided = await DECIDE.run(this.redis, this.#keys(place, questionId), { who, state });
    return decided === "" ? null : decided;
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
